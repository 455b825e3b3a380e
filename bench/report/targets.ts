import { BenchResults, HttpCell, HttpMethod, HttpTargetKey, StdioCell } from './results';
import { num, ratio } from './format';

export const QUERY_LIMIT_MS = 50;

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

/** Every performance target, evaluated from measured values only. */
export function evaluateTargets(results: BenchResults): TargetCheck[] {
  return [...httpChecks(results), ...stdioChecks(results), ...queryChecks(results)];
}

function httpChecks({ http }: BenchResults): TargetCheck[] {
  if (!http) return [];
  const checks: TargetCheck[] = [];
  const find = (t: HttpTargetKey, m: HttpMethod, c: number): HttpCell | undefined =>
    http.cells.find((cell) => cell.target === t && cell.method === m && cell.connections === c);
  const scenarios = http.cells.filter((cell) => cell.target === 'a');
  for (const a of scenarios) {
    const c = find('c', a.method, a.connections);
    const d = find('d', a.method, a.connections);
    const name = `${a.method}, ${a.connections} connections`;
    if (c) {
      const rps = a.rps / c.rps;
      checks.push({
        target: `(a) req/s ≥ 0.75 × (c), ${name}`,
        measured: `${num(a.rps)} vs ${num(c.rps)} req/s = ${ratio(rps)}`,
        met: rps >= 0.75,
      });
      const p99 = a.p99Ms / c.p99Ms;
      checks.push({
        target: `(a) p99 ≤ 2 × (c), ${name}`,
        measured: `${num(a.p99Ms)} vs ${num(c.p99Ms)} ms = ${ratio(p99)}`,
        met: p99 <= 2,
      });
    }
    if (d) {
      const rps = a.rps / d.rps;
      checks.push({
        target: `(a) req/s ≥ 4 × (d), ${name}`,
        measured: `${num(a.rps)} vs ${num(d.rps)} req/s = ${ratio(rps)}`,
        met: rps >= 4,
      });
    }
  }
  const a = scenarios[0];
  const c = http.cells.find((cell) => cell.target === 'c');
  if (a && c) {
    const rss = a.maxRssMb / c.maxRssMb;
    checks.push({
      target: '(a) RSS ≤ 1.3 × (c) (max VmRSS over all runs)',
      measured: `${num(a.maxRssMb)} vs ${num(c.maxRssMb)} MiB = ${ratio(rss)}`,
      met: rss <= 1.3,
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
      target: `stdio, governance + ledger ≥ 0.7 × SDK stdio, ${mode}`,
      measured: `${num(gateway.callsPerSecond)} vs ${num(sdk.callsPerSecond)} calls/s = ${ratio(value)}`,
      met: value >= 0.7,
    });
  }
  return checks;
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
