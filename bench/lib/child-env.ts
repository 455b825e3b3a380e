/**
 * The environment of every process the bench starts: the bench's own minus
 * MCP_* and OTEL_* (a gateway is configured by its bench setup alone: an
 * OTEL_EXPORTER_OTLP_ENDPOINT of the shell would switch tracing on) and
 * NODE_OPTIONS (node flags reach a server only as the bench's one list of
 * arguments), plus `extra`.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('MCP_') && !key.startsWith('OTEL_') && key !== 'NODE_OPTIONS') {
      env[key] = value;
    }
  }
  return { ...env, ...extra };
}
