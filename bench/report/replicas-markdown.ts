import { num, ratio, table } from './format';
import { ReplicasCell, ReplicasResults, ReplicasTargetKey } from './results';
import { pairedCells } from './replicas-pairs';
import { cpuCeilingRps, projectionCell, projectScaling, totalCpuUs } from './replicas-scaling';
import { MAX_SHARED_SESSIONS_P99, MIN_SHARED_SESSIONS_RPS } from './targets';

/** BENCHMARKS.md's replicas section: what shared sessions cost one replica, and two replicas against one. */
export function replicasSection(replicas: ReplicasResults): string {
  const runs = `${replicas.reps} ${replicas.reps === 1 ? 'run' : 'runs'} per cell`;
  return [
    '## 4. Replicas (shared sessions, `state.driver: redis`)',
    '',
    [
      "tools/call of `bench_echo` on gateway (a)'s setup (governance, SQLite ledger) in three processes",
      'that differ only in `state.*`: `memory` (sessions and governance counters in the process),',
      '`redis` with `sessions: local` (rate-limit counters and spend in Redis, sessions in the process)',
      "and `redis` with `sessions: shared` (both in Redis; the machine's Redis, a key prefix of the",
      "run's own), each called directly through a session of its own. The target compares shared",
      'against local sessions, both with the counters in Redis: the cost of shared sessions alone. A',
      'replica serves a session it already holds from its local copy, with no Redis round trip but a',
      'throttled PEXPIRE. Shared sessions against `memory` adds what the counters cost (one atomic',
      'script each for the per-minute and per-day windows and the budget per call), reported without a',
      `target. autocannon, ${replicas.durationSeconds} s per run, ${runs}, targets alternating; req/s,`,
      'p50, p99 and the CPU time per request are medians over the runs.',
    ].join(' '),
    '',
    cellTable(replicas.sharedCost, replicas.labels, false),
    '',
    table(
      ['Conns', 'Compared', 'req/s ratio', 'p99 ratio', 'Extra gateway CPU µs/request', 'Target'],
      sharedCostRatios(replicas.sharedCost),
    ),
    '',
    [
      'Two redis-mode replicas behind the round-robin proxy (bench/shared/round-robin-proxy.ts, the',
      "replica tests' balancer without session affinity, here a node process of its own), against the",
      'first of them alone behind another instance of the same proxy. No target: see below for what',
      `limits it. Same load and ${runs} as above.`,
    ].join(' '),
    '',
    cellTable(replicas.scaleOut, replicas.labels, true),
    '',
    table(['Conns', 'two / one replica req/s', 'two / one replica p99'], scaleOutRatios(replicas)),
    '',
    scalingText(replicas),
  ].join('\n');
}

function cellTable(
  cells: readonly ReplicasCell[],
  labels: Record<ReplicasTargetKey, string>,
  proxied: boolean,
): string {
  const header = [
    'Conns',
    'Target',
    'req/s',
    'req/s per run',
    'p50 ms',
    'p99 ms',
    'Gateway CPU µs/request',
    ...(proxied ? ['Proxy µs', 'Load generator µs'] : []),
    'Redis µs',
    'Requests',
    'Non-2xx',
    'Errors',
    'Mismatches',
  ];
  const rows = cells.map((cell) => [
    cell.connections,
    labels[cell.target],
    num(cell.rps),
    cell.runs.map((r) => num(r.requestsPerSecond)).join(', '),
    num(cell.p50Ms),
    num(cell.p99Ms),
    num(cell.cpu.gatewaysUs),
    ...(proxied ? [num(cell.cpu.proxyUs), num(cell.cpu.loadGeneratorUs)] : []),
    cell.target === 'memory' ? '-' : num(cell.cpu.redisUs),
    cell.requests.toLocaleString('en-US'),
    cell.non2xx,
    cell.errors,
    cell.mismatches,
  ]);
  return table(header, rows);
}

/** The pairs of the shared-session cells: the target's first, then what the counters add. */
const SHARED_COST_PAIRS: ReadonlyArray<{
  key: ReplicasTargetKey;
  other: ReplicasTargetKey;
  compared: string;
  target: string;
}> = [
  {
    key: 'shared-sessions',
    other: 'local-sessions',
    compared: 'shared / local sessions (counters in Redis in both)',
    target: `req/s ≥ ${MIN_SHARED_SESSIONS_RPS}×, p99 ≤ ${MAX_SHARED_SESSIONS_P99}×`,
  },
  {
    key: 'shared-sessions',
    other: 'memory',
    compared: 'shared sessions / state.driver memory (sessions and counters)',
    target: 'none',
  },
  {
    key: 'local-sessions',
    other: 'memory',
    compared: 'local sessions / state.driver memory (the counters alone)',
    target: 'none',
  },
];

function sharedCostRatios(cells: readonly ReplicasCell[]): Array<Array<string | number>> {
  return [...new Set(cells.map((cell) => cell.connections))].flatMap((connections) =>
    SHARED_COST_PAIRS.flatMap(({ key, other, compared, target }) =>
      pairedCells(cells, key, other)
        .filter(([cell]) => cell.connections === connections)
        .map(([cell, base]) => [
          connections,
          compared,
          ratio(cell.rps / base.rps),
          ratio(cell.p99Ms / base.p99Ms),
          num(cell.cpu.gatewaysUs - base.cpu.gatewaysUs),
          target,
        ]),
    ),
  );
}

function scaleOutRatios(replicas: ReplicasResults): Array<Array<string | number>> {
  return pairedCells(replicas.scaleOut, 'two-replicas', 'one-replica').map(([two, one]) => [
    two.connections,
    ratio(two.rps / one.rps),
    ratio(two.p99Ms / one.p99Ms),
  ]);
}

/** What limits two replicas on this machine, and the scaling their measured CPU cost predicts. */
function scalingText(replicas: ReplicasResults): string {
  const cell = projectionCell(replicas.scaleOut);
  if (cell === undefined) return '';
  const { cpu } = cell;
  const ceiling = cpuCeilingRps(cell, replicas.cores);
  const redisKnown = Number.isFinite(cpu.redisUs);
  const projection = projectScaling(cpu);
  return [
    [
      `What limits it here: the load generator (autocannon, in the bench process), the proxy, both`,
      `replicas and Redis share this machine's ${replicas.cores} cores. At ${cell.connections}`,
      `connections one request through two replicas cost ${num(totalCpuUs(cpu))} µs of CPU in all`,
      `(gateways ${num(cpu.gatewaysUs)}, proxy ${num(cpu.proxyUs)}, load generator`,
      `${num(cpu.loadGeneratorUs)}, Redis ${redisKnown ? num(cpu.redisUs) : 'not read'}; CPU time read`,
      'before and after each run from /proc/<pid>/stat for the gateways and the proxy, process.cpuUsage()',
      'for the bench process and INFO cpu for redis-server, divided by the requests answered), so',
      `${replicas.cores} busy cores would answer at most ${num(ceiling)} req/s; the run made`,
      `${num(cell.rps)} req/s (${num((cell.rps / ceiling) * 100)} % of that). A second replica adds`,
      'throughput only where there is an idle core to give it; here the proxy and the load generator',
      `together spend ${num(cpu.proxyUs + cpu.loadGeneratorUs)} µs per request,`,
      `${ratio((cpu.proxyUs + cpu.loadGeneratorUs) / cpu.gatewaysUs)} the gateways', on the same cores.`,
      'Other work on the machine (and on its Redis) counts against the same cores and shows as noise.',
    ].join(' '),
    '',
    [
      'Expected scaling with more cores, from the gateway CPU per request measured above',
      `(${num(cpu.gatewaysUs)} µs): each replica on a core of its own, with the clients and the`,
      'balancer elsewhere (as in a deployment), serves about 1,000,000 / that many req/s, so N replicas',
      'about N times as many,',
      redisKnown
        ? `until Redis, which runs commands on one thread and spent ${num(cpu.redisUs)} µs per request, is busy all the time at about ${num(1e6 / cpu.redisUs)} req/s.`
        : 'with no Redis bound, since its CPU time could not be read.',
      'An upper bound from CPU time alone: network, the balancer and Redis round trips add latency, not',
      'CPU, and do not show in it.',
    ].join(' '),
    '',
    table(
      ['Replicas (a core each)', 'Expected req/s', 'Bound by'],
      projection.map((p) => [
        p.replicas,
        num(p.rps),
        p.limitedBy === 'redis' ? "Redis's one thread" : 'gateway CPU',
      ]),
    ),
    '',
  ].join('\n');
}
