import autocannon from 'autocannon';

export interface LoadTestSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  durationSeconds: number;
  /** Every response body must equal this; others count as mismatches. */
  expectBody?: string;
}

export interface LoadTestResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
}

/** One autocannon run (in this process) against a POST endpoint. */
export async function loadTest(spec: LoadTestSpec): Promise<LoadTestResult> {
  const result = await autocannon({
    url: spec.url,
    method: 'POST',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: spec.durationSeconds,
    expectBody: spec.expectBody,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  };
}
