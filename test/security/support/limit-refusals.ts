/**
 * What the security suites read back from a gateway: its limit-refusal
 * counters and gauges from /metrics, and its JSON log lines from stderr.
 */

/** A sample of one series in the Prometheus text of /metrics (0 when the series is absent). */
export async function metricValue(baseUrl: string, series: string): Promise<number> {
  const res = await fetch(`${baseUrl}/metrics`);
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

export const refusals = (baseUrl: string, limit: string) =>
  metricValue(baseUrl, `mcp_limit_refusals_total{limit="${limit}"}`);

export const activeSessions = (baseUrl: string, transport: string) =>
  metricValue(baseUrl, `mcp_sessions_active{transport="${transport}"}`);

/** Every JSON log line of a gateway's stderr. */
export function logLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The JSON-RPC error of a refusal body, with the fields every limit refusal carries. */
export interface LimitError {
  code: number;
  message: string;
  data: { limit: string; max: number; retryable: boolean; http_status?: number };
}

export function errorOf(text: string): { id: unknown; error: LimitError } {
  return JSON.parse(text) as { id: unknown; error: LimitError };
}
