/**
 * Finding 7, admin input: PUT /admin/governance/rules with a client named
 * `constructor` answered 500 (class-transformer threw), `__proto__` and
 * `toString` were accepted and silently dropped, and a deeply nested body
 * overflowed the stack (500). Each is now a 400 naming the key, the rules in
 * force stay as they were, and nothing reaches Object.prototype.
 */
import { httpRequest } from '../robustness/support/limits-client';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';

const ADMIN_TOKEN = 'admin-input-token-0123456789abcdef';

describe('admin input validated to 400 (finding 7)', () => {
  let gateway: HttpGatewayHandle;
  let rules: Record<string, unknown>;

  beforeAll(async () => {
    process.env.MCP_SERVER_ADMIN_TOKEN = ADMIN_TOKEN;
    try {
      gateway = await startHttpGateway();
    } finally {
      delete process.env.MCP_SERVER_ADMIN_TOKEN;
    }
    rules = JSON.parse((await admin('GET', '/admin/governance/rules')).text) as Record<
      string,
      unknown
    >;
  });

  afterAll(() => gateway?.close());

  function admin(method: string, path: string, body?: string) {
    return httpRequest(`${gateway.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body,
    });
  }

  /** The rules in force with one client added, as raw JSON so that __proto__ stays a key. */
  const withClient = (name: string) =>
    JSON.stringify({ ...rules, clients: {} }).replace(
      '"clients":{}',
      `"clients":{${JSON.stringify(name)}:{"allow":["*"],"quota":{"monthly_budget":1}}}`,
    );

  it.each(['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'])(
    'answers 400 naming the key for a client named %s, and keeps the rules in force',
    async (name) => {
      const answer = await admin('PUT', '/admin/governance/rules', withClient(name));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({
        statusCode: 400,
        problems: [
          `mcp_server.governance.clients.${name}: is a reserved name (Object.prototype member names and "prototype" cannot be keys)`,
        ],
      });
      const after = await admin('GET', '/admin/governance/rules');
      expect(JSON.parse(after.text)).toEqual(rules);
      const probe = {} as Record<string, unknown>;
      expect(probe.allow).toBeUndefined();
      expect(probe.quota).toBeUndefined();
    },
  );

  it('answers 400 for a tool_limits key named constructor too', async () => {
    const body = JSON.stringify({
      ...rules,
      clients: { alpha: { tool_limits: JSON.parse('{"constructor":{"max_calls_per_minute":1}}') } },
    });
    const answer = await admin('PUT', '/admin/governance/rules', body);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('mcp_server.governance.clients.alpha.tool_limits.constructor');
  });

  it('answers 400 for bodies nested 10,000 deep (objects and arrays), never 500', async () => {
    for (const body of [
      '{"clients":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_001),
      '['.repeat(10_000) + ']'.repeat(10_000),
    ]) {
      const answer = await admin('PUT', '/admin/governance/rules', body);
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('is nested deeper than 32 levels');
    }
  });

  it('still stores an ordinary client and serves every route afterwards', async () => {
    const answer = await admin('PUT', '/admin/governance/rules', withClient('constructor-team'));
    expect(answer.status).toBe(200);
    const stored = JSON.parse(answer.text) as { rules: { clients: Record<string, unknown> } };
    expect(Object.keys(stored.rules.clients)).toEqual(['constructor-team']);
    expect((await admin('GET', '/admin/governance/clients/constructor')).status).toBe(200);
    expect((await httpRequest(`${gateway.baseUrl}/health`)).status).toBe(200);
  });
});
