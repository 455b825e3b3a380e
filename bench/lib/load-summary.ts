import { LoadTestResult } from './load-test';
import { median, sum } from './stats';

/** What a cell reports of its runs: medians of rate and latency, totals of the counts. */
export interface LoadSummary {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
}

export function summarizeLoad(runs: readonly LoadTestResult[]): LoadSummary {
  return {
    rps: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    requests: sum(runs.map((r) => r.requests)),
    non2xx: sum(runs.map((r) => r.non2xx)),
    errors: sum(runs.map((r) => r.errors)),
    timeouts: sum(runs.map((r) => r.timeouts)),
    mismatches: sum(runs.map((r) => r.mismatches)),
  };
}
