import { comparedCell } from './compared-cell';
import { num, ratio } from './format';
import { pairedCells } from './replicas-pairs';
import {
  BenchResults,
  FederationCell,
  HttpCell,
  HttpMethod,
  HttpResults,
  StdioCell,
} from './results';

export const QUERY_LIMIT_MS = 50;

/** Least req/s of gateway (a) as a multiple of (c) and of (d), per method. */
const MIN_RPS_RATIO: Record<HttpMethod, { c: number; d: number }> = {
  'tools/call': { c: 1.5, d: 4 },
  'tools/call (priced)': { c: 1.5, d: 4 },
  'tools/list': { c: 0.75, d: 4 },
};
/** Methods whose (a) p99 must stay within MAX_P99_RATIO of (c)'s. */
const P99_METHODS: readonly HttpMethod[] = ['tools/call', 'tools/list'];
const MAX_P99_RATIO = 2;
const MAX_RSS_RATIO = 1.3;
const MIN_STDIO_RATIO = 0.6;
/** Federated echo req/s at least these multiples of the local echo and of the SDK HTTP server direct. */
const MIN_FEDERATED_VS_LOCAL = 0.5;
const MIN_FEDERATED_VS_SDK = 2;
const MAX_FEDERATED_P99_VS_LOCAL = 3;
/** Redis-backed sessions against in-process ones, on one gateway with its counters in Redis. */
export const MIN_SHARED_SESSIONS_RPS = 0.85;
export const MAX_SHARED_SESSIONS_P99 = 1.5;
/** Tracing on, every span exported, against tracing off: at most 20 % of req/s. */
export const MIN_TRACING_ON_RPS = 0.8;

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

/** Every performance target, evaluated from measured values only. */
export function evaluateTargets(results: BenchResults): TargetCheck[] {
  return [
    ...httpChecks(results),
    ...stdioChecks(results),
    ...federationChecks(results),
    ...replicasChecks(results),
    ...tracingChecks(results),
    ...queryChecks(results),
  ];
}

function httpChecks({ http }: BenchResults): TargetCheck[] {
  if (!http) return [];
  const scenarios = http.cells.filter((cell) => cell.target === 'a');
  const checks = scenarios.flatMap((a) => scenarioChecks(http, a));
  const a = scenarios[0];
  const c = http.cells.find((cell) => cell.target === 'c');
  if (a && c) {
    const rss = a.maxRssMb / c.maxRssMb;
    checks.push({
      target: `(a) RSS ≤ ${MAX_RSS_RATIO} × (c) (max VmRSS over all runs)`,
      measured: `${num(a.maxRssMb)} vs ${num(c.maxRssMb)} MiB = ${ratio(rss)}`,
      met: rss <= MAX_RSS_RATIO,
    });
  }
  return checks;
}

/** Gateway (a)'s targets in one scenario (method, connections) against (c) and (d). */
function scenarioChecks(http: HttpResults, a: HttpCell): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const min = MIN_RPS_RATIO[a.method];
  const c = comparedCell(http, 'c', a);
  const d = comparedCell(http, 'd', a);
  const name = (other: HttpCell) =>
    other.method === a.method
      ? `${a.method}, ${a.connections} connections`
      : `${a.method} vs (${other.target}) ${other.method}, ${a.connections} connections`;
  if (c) {
    const rps = a.rps / c.rps;
    checks.push({
      target: `(a) req/s ≥ ${min.c} × (c), ${name(c)}`,
      measured: `${num(a.rps)} vs ${num(c.rps)} req/s = ${ratio(rps)}`,
      met: rps >= min.c,
    });
    if (P99_METHODS.includes(a.method)) {
      const p99 = a.p99Ms / c.p99Ms;
      checks.push({
        target: `(a) p99 ≤ ${MAX_P99_RATIO} × (c), ${name(c)}`,
        measured: `${num(a.p99Ms)} vs ${num(c.p99Ms)} ms = ${ratio(p99)}`,
        met: p99 <= MAX_P99_RATIO,
      });
    }
  }
  if (d) {
    const rps = a.rps / d.rps;
    checks.push({
      target: `(a) req/s ≥ ${min.d} × (d), ${name(d)}`,
      measured: `${num(a.rps)} vs ${num(d.rps)} req/s = ${ratio(rps)}`,
      met: rps >= min.d,
    });
  }
  return checks;
}

function stdioChecks({ stdio }: BenchResults): TargetCheck[] {
  if (!stdio) return [];
  const checks: TargetCheck[] = [];
  const find = (t: StdioCell['target'], inFlight: number) =>
    stdio.cells.find((cell) => cell.target === t && cell.inFlight === inFlight);
  for (const gateway of stdio.cells.filter((cell) => cell.target === 'gateway')) {
    const sdk = find('sdk', gateway.inFlight);
    if (!sdk) continue;
    const value = gateway.callsPerSecond / sdk.callsPerSecond;
    const mode = gateway.inFlight === 1 ? 'sequential' : `${gateway.inFlight} in flight`;
    checks.push({
      target: `stdio, governance + ledger ≥ ${MIN_STDIO_RATIO} × SDK stdio, ${mode}`,
      measured: `${num(gateway.callsPerSecond)} vs ${num(sdk.callsPerSecond)} calls/s = ${ratio(value)}`,
      met: value >= MIN_STDIO_RATIO,
    });
  }
  return checks;
}

function federationChecks({ federation }: BenchResults): TargetCheck[] {
  if (!federation) return [];
  const find = (target: FederationCell['target'], connections: number) =>
    federation.cells.find((cell) => cell.target === target && cell.connections === connections);
  return federation.cells
    .filter((cell) => cell.target === 'federated')
    .flatMap((fed) => {
      const local = find('local', fed.connections);
      const sdk = find('sdk-direct', fed.connections);
      const conns = `${fed.connections} connections`;
      const checks: TargetCheck[] = [];
      if (local) {
        const rps = fed.rps / local.rps;
        const p99 = fed.p99Ms / local.p99Ms;
        checks.push(
          {
            target: `federated echo req/s ≥ ${MIN_FEDERATED_VS_LOCAL} × local echo, ${conns}`,
            measured: `${num(fed.rps)} vs ${num(local.rps)} req/s = ${ratio(rps)}`,
            met: rps >= MIN_FEDERATED_VS_LOCAL,
          },
          {
            target: `federated echo p99 ≤ ${MAX_FEDERATED_P99_VS_LOCAL} × local echo, ${conns}`,
            measured: `${num(fed.p99Ms)} vs ${num(local.p99Ms)} ms = ${ratio(p99)}`,
            met: p99 <= MAX_FEDERATED_P99_VS_LOCAL,
          },
        );
      }
      if (sdk) {
        const rps = fed.rps / sdk.rps;
        checks.push({
          target: `federated echo req/s ≥ ${MIN_FEDERATED_VS_SDK} × SDK HTTP server direct, ${conns}`,
          measured: `${num(fed.rps)} vs ${num(sdk.rps)} req/s = ${ratio(rps)}`,
          met: rps >= MIN_FEDERATED_VS_SDK,
        });
      }
      return checks;
    });
}

function replicasChecks({ replicas }: BenchResults): TargetCheck[] {
  if (!replicas) return [];
  const pairs = pairedCells(replicas.sharedCost, 'shared-sessions', 'local-sessions');
  return pairs.flatMap(([shared, local]) => {
    const rps = shared.rps / local.rps;
    const p99 = shared.p99Ms / local.p99Ms;
    const conns = `${shared.connections} connections`;
    return [
      {
        target: `Redis-backed sessions req/s ≥ ${MIN_SHARED_SESSIONS_RPS} × in-process, ${conns}`,
        measured: `${num(shared.rps)} vs ${num(local.rps)} req/s = ${ratio(rps)}`,
        met: rps >= MIN_SHARED_SESSIONS_RPS,
      },
      {
        target: `Redis-backed sessions p99 ≤ ${MAX_SHARED_SESSIONS_P99} × in-process, ${conns}`,
        measured: `${num(shared.p99Ms)} vs ${num(local.p99Ms)} ms = ${ratio(p99)}`,
        met: p99 <= MAX_SHARED_SESSIONS_P99,
      },
    ];
  });
}

function tracingChecks({ tracing }: BenchResults): TargetCheck[] {
  if (!tracing) return [];
  return tracing.cells
    .filter((cell) => cell.target === 'on')
    .flatMap((on) => {
      const off = tracing.cells.find(
        (cell) => cell.target === 'off' && cell.connections === on.connections,
      );
      if (!off) return [];
      const rps = on.rps / off.rps;
      return [
        {
          target: `tracing on (sample_ratio 1) req/s ≥ ${MIN_TRACING_ON_RPS} × off, ${on.connections} connections`,
          measured: `${num(on.rps)} vs ${num(off.rps)} req/s = ${ratio(rps)}`,
          met: rps >= MIN_TRACING_ON_RPS,
        },
      ];
    });
}

function queryChecks({ growth }: BenchResults): TargetCheck[] {
  if (!growth) return [];
  const groups = [
    ...(growth.tools
      ? [{ name: `${growth.tools.count} tools`, timings: growth.tools.timings }]
      : []),
    ...(growth.skills
      ? [{ name: `${growth.skills.count} skills`, timings: growth.skills.timings }]
      : []),
    ...growth.ledger.map((l) => ({
      name: `${l.rows.toLocaleString('en-US')} ledger rows, ${l.driver}`,
      timings: l.timings,
    })),
  ];
  return groups.flatMap(({ name, timings }) =>
    timings
      .filter((t) => t.targeted)
      .map((t) => ({
        target: `${t.label} < ${QUERY_LIMIT_MS} ms (${name})`,
        measured: `${num(t.medianMs)} ms median (first ${num(t.firstMs)} ms)`,
        met: t.medianMs < QUERY_LIMIT_MS,
      })),
  );
}
