/**
 * The environment of every process the bench starts: the bench's own minus
 * MCP_* (a gateway is configured by its bench setup alone) and NODE_OPTIONS
 * (node flags reach a server only as the bench's one list of arguments),
 * plus `extra`.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MCP_') && key !== 'NODE_OPTIONS') env[key] = value;
  }
  return { ...env, ...extra };
}
