import { ProfileSummary } from '../lib/cpu-profile';
import { LoadTestResult } from '../lib/load-test';

/**
 * The HTTP targets: (a) gateway governed, (b) gateway bare, (c) bare Nest,
 * (d) SDK stateless, (e) raw node:http.
 */
export type HttpTargetKey = 'a' | 'b' | 'c' | 'd' | 'e';
/** `tools/call (priced)` calls the tool with a declared cost; only (a) has a spend path for it. */
export type HttpMethod = 'tools/call' | 'tools/call (priced)' | 'tools/list';

export interface HttpCell {
  target: HttpTargetKey;
  method: HttpMethod;
  connections: number;
  runs: LoadTestResult[];
  /** Medians over the runs. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Totals over the runs. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  /** Largest VmRSS read after any run of this target (all cells), MiB. */
  maxRssMb: number;
}

export interface HttpResults {
  durationSeconds: number;
  reps: number;
  cells: HttpCell[];
  targets: Record<
    HttpTargetKey,
    { label: string; sampleBytes: Partial<Record<HttpMethod, number>> }
  >;
}

/**
 * The federation section's targets: the gateway's local echo, the same echo
 * on an SDK stdio upstream called through that gateway, and the SDK's own
 * Streamable HTTP server called directly.
 */
export type FederationTargetKey = 'local' | 'federated' | 'sdk-direct';

export interface FederationCell {
  target: FederationTargetKey;
  connections: number;
  runs: LoadTestResult[];
  /** Medians over the runs. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Totals over the runs. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
}

/** RSS of a gateway with `upstreams` idle stdio upstreams, beside one with none. */
export interface IdleUpstreamsRss {
  upstreams: number;
  /** From the gateway's first answer to every upstream tool listed. */
  listedAfterMs: number;
  gatewayRssMb: number;
  /** The same gateway setup with no upstream, sampled the same way. */
  noUpstreamRssMb: number;
  /** The upstream processes together (the gateway's direct children). */
  childrenRssMb: number;
  children: number;
}

export interface FederationResults {
  durationSeconds: number;
  reps: number;
  labels: Record<FederationTargetKey, string>;
  /** `budgets.max_concurrency` of the benchmarked upstream. */
  maxConcurrency: number;
  cells: FederationCell[];
  /** Largest VmRSS of the federating gateway read after any of its runs, MiB. */
  gatewayMaxRssMb: number;
  idle: IdleUpstreamsRss;
}

/**
 * The replicas section's targets. Shared-session cost: one gateway with
 * everything in process (`memory`), with its counters in Redis and its
 * sessions in process (`local-sessions`), or with both in Redis
 * (`shared-sessions`), called directly. Scale-out: a redis gateway alone
 * behind the round-robin proxy (`one-replica`), or it and a second one behind
 * it (`two-replicas`).
 */
export type ReplicasTargetKey =
  'memory' | 'local-sessions' | 'shared-sessions' | 'one-replica' | 'two-replicas';

/** CPU time per request of each process on the request's path (µs), median over the runs. */
export interface CpuPerRequest {
  /** Every gateway process that served the cell, together. */
  gatewaysUs: number;
  /** The round-robin proxy (0 when the cell has none). */
  proxyUs: number;
  /** The bench process, which runs autocannon. */
  loadGeneratorUs: number;
  /** redis-server (its INFO cpu), NaN when it could not be read; 0 for in-process sessions. */
  redisUs: number;
}

export interface ReplicasCell {
  target: ReplicasTargetKey;
  connections: number;
  runs: LoadTestResult[];
  /** Medians over the runs. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Totals over the runs. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  cpu: CpuPerRequest;
}

export interface ReplicasResults {
  durationSeconds: number;
  reps: number;
  labels: Record<ReplicasTargetKey, string>;
  /** `memory`, `local-sessions` and `shared-sessions`. */
  sharedCost: ReplicasCell[];
  /** `one-replica` against `two-replicas`. */
  scaleOut: ReplicasCell[];
  /** Cores of the machine every process shared. */
  cores: number;
}

/**
 * The tracing section's targets: gateway (a)'s setup with tracing off, on
 * (every span exported), and on with sample_ratio 0.
 */
export type TracingTargetKey = 'off' | 'on' | 'unsampled';

export interface TracingCell {
  target: TracingTargetKey;
  connections: number;
  runs: LoadTestResult[];
  /** Medians over the runs. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Totals over the runs. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  /** The gateway's CPU time per request (µs), median over the runs. */
  gatewayCpuUs: number;
}

export interface TracingResults {
  durationSeconds: number;
  reps: number;
  labels: Record<TracingTargetKey, string>;
  cells: TracingCell[];
  /** Spans the sink received per request of the `on` gateway (4 when none was dropped). */
  spansPerTracedRequest: number;
  /** Export requests the sink received. */
  exports: number;
}

export interface StdioCell {
  target: 'gateway' | 'sdk';
  inFlight: number;
  calls: number;
  /** calls/s of each run, and their median. */
  runs: number[];
  callsPerSecond: number;
  /** calls/s over each run's first `calls` calls (a fresh process), median over the runs. */
  coldCallsPerSecond: number;
  /** The server's CPU time (all threads) per measured call, median over the runs (µs). */
  cpuUsPerCall: number;
  errors: number;
  maxRssMb: number;
}

export interface StdioResults {
  calls: number;
  reps: number;
  cells: StdioCell[];
}

/** One timed query: first (cold) and the median of the repeats. */
export interface QueryTiming {
  label: string;
  firstMs: number;
  medianMs: number;
  repeats: number;
  /** What the answer held (e.g. "100 tools", "50 rows"). */
  detail: string;
  /** Whether the < 50 ms target applies to this line. */
  targeted: boolean;
}

export interface GrowthResults {
  tools?: { count: number; startupMs: number; timings: QueryTiming[] };
  skills?: {
    count: number;
    categories: number;
    scanMs: { first: number; median: number };
    startupMs: number;
    timings: QueryTiming[];
  };
  ledger: Array<{
    driver: 'sqlite' | 'postgres';
    rows: number;
    fillMs: number;
    timings: QueryTiming[];
  }>;
  notes: string[];
}

export interface BenchResults {
  startedAt: Date;
  finishedAt?: Date;
  command: string;
  loadAtStart: number[];
  waitedForLoadSeconds: number;
  nodeFlags: NodeFlagsUsed;
  http?: HttpResults;
  stdio?: StdioResults;
  federation?: FederationResults;
  replicas?: ReplicasResults;
  tracing?: TracingResults;
  growth?: GrowthResults;
  profile?: ProfileResults;
}

export interface ProfileResults {
  connections: number;
  /** tools/call served before the profiled window, and during it. */
  callsBefore: number;
  callsDuring: number;
  rpsBefore: number;
  rpsDuring: number;
  summary: ProfileSummary;
}

/** The node flags every server ran with, and where they came from. */
export interface NodeFlagsUsed {
  flags: string[];
  source: 'Dockerfile' | '--node-flags';
}
