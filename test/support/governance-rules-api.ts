/** `/admin/governance/rules` of one gateway, read and replaced with its admin token. */
export interface GovernanceRulesApi {
  /** The rules in force, as the API answers them (GET). */
  get<T = Record<string, unknown>>(): Promise<T>;
  /** Replaces them (PUT); the answer as it came, so that a test can check a refusal. */
  put(rules: unknown): Promise<Response>;
}

export function governanceRulesApi(baseUrl: string, token: string): GovernanceRulesApi {
  const url = `${baseUrl}/admin/governance/rules`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    async get<T>() {
      return (await (await fetch(url, { headers })).json()) as T;
    },
    put: (rules) => fetch(url, { method: 'PUT', headers, body: JSON.stringify(rules) }),
  };
}
