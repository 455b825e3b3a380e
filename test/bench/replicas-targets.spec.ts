import { parseOptions } from '../../bench/lib/args';
import { replicasSection } from '../../bench/report/replicas-markdown';
import { projectScaling } from '../../bench/report/replicas-scaling';
import {
  BenchResults,
  CpuPerRequest,
  ReplicasCell,
  ReplicasResults,
  ReplicasTargetKey,
} from '../../bench/report/results';
import { evaluateTargets } from '../../bench/report/targets';
import { REPLICAS_LABELS } from '../../bench/sections/replicas-targets';

/**
 * The replicas section's targets (issue #22, Performance) are computed from
 * the measured cells: Redis-backed sessions against in-process ones on one
 * gateway whose counters are in Redis either way, req/s and p99, per
 * connection count; the gateway with everything in process is reported
 * beside them without a target. Two replicas against one has no target; its
 * expected scaling is derived from the measured CPU per request.
 */

const CPU: CpuPerRequest = { gatewaysUs: 100, proxyUs: 40, loadGeneratorUs: 60, redisUs: 20 };

function cell(
  target: ReplicasTargetKey,
  connections: number,
  rps: number,
  p99Ms: number,
  cpu: CpuPerRequest = CPU,
): ReplicasCell {
  return {
    target,
    connections,
    runs: [],
    rps,
    p50Ms: p99Ms / 4,
    p99Ms,
    requests: rps * 10,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    cpu,
  };
}

function replicas(sharedCost: ReplicasCell[], scaleOut: ReplicasCell[] = []): ReplicasResults {
  return {
    durationSeconds: 10,
    reps: 3,
    labels: REPLICAS_LABELS,
    sharedCost,
    scaleOut,
    cores: 2,
  };
}

function results(section: ReplicasResults): BenchResults {
  return {
    startedAt: new Date(0),
    command: 'npm run bench -- --only replicas',
    loadAtStart: [0, 0, 0],
    waitedForLoadSeconds: 0,
    nodeFlags: { flags: [], source: 'Dockerfile' },
    replicas: section,
  };
}

describe('bench replicas targets', () => {
  it('checks shared sessions against local ones at each connection count, not against memory', () => {
    const checks = evaluateTargets(
      results(
        replicas([
          // Far slower than memory: the counters' cost, which the target leaves out.
          cell('memory', 10, 9_000, 2),
          cell('local-sessions', 10, 5_000, 4),
          cell('shared-sessions', 10, 4_500, 5),
          cell('memory', 50, 9_000, 10),
          cell('local-sessions', 50, 5_000, 20),
          cell('shared-sessions', 50, 4_000, 40),
        ]),
      ),
    );
    expect(checks.map(({ target, met }) => ({ target, met }))).toEqual([
      { target: 'Redis-backed sessions req/s ≥ 0.85 × in-process, 10 connections', met: true },
      { target: 'Redis-backed sessions p99 ≤ 1.5 × in-process, 10 connections', met: true },
      { target: 'Redis-backed sessions req/s ≥ 0.85 × in-process, 50 connections', met: false },
      { target: 'Redis-backed sessions p99 ≤ 1.5 × in-process, 50 connections', met: false },
    ]);
    expect(checks[0].measured).toBe('4,500 vs 5,000 req/s = 0.90×');
  });

  it('sets no target on two replicas against one', () => {
    const section = replicas(
      [],
      [cell('one-replica', 10, 3_000, 8), cell('two-replicas', 10, 3_300, 9)],
    );
    expect(evaluateTargets(results(section))).toEqual([]);
  });

  it('projects N replicas from the gateway CPU per request, capped by Redis', () => {
    // 100 µs per request in the gateways: 10,000 req/s a core; Redis at 20 µs caps at 50,000.
    expect(
      projectScaling(CPU).map(({ replicas: n, rps, limitedBy }) => [n, rps, limitedBy]),
    ).toEqual([
      [1, 10_000, 'gateways'],
      [2, 20_000, 'gateways'],
      [4, 40_000, 'gateways'],
      [8, 50_000, 'redis'],
      [16, 50_000, 'redis'],
    ]);
  });

  it('renders the ratios and what limits two replicas on the machine', () => {
    const markdown = replicasSection(
      replicas(
        [
          cell('memory', 10, 9_000, 3),
          cell('local-sessions', 10, 5_000, 4),
          cell('shared-sessions', 10, 4_500, 6),
        ],
        [cell('one-replica', 10, 3_000, 8), cell('two-replicas', 10, 3_300, 12)],
      ),
    );
    expect(markdown).toContain(
      '| 10 | shared / local sessions (counters in Redis in both) | 0.90× | 1.50× | 0.00 | req/s ≥ 0.85×, p99 ≤ 1.5× |',
    );
    expect(markdown).toContain(
      '| 10 | shared sessions / state.driver memory (sessions and counters) | 0.50× | 2.00× | 0.00 | none |',
    );
    expect(markdown).toContain('| 10 | 1.10× | 1.50× |');
    // 220 µs per request on 2 cores: at most 9,091 req/s; 3,300 is 36 % of it.
    expect(markdown).toContain('at most 9,091 req/s');
    expect(markdown).toContain('(36.3 % of that)');
    expect(markdown).toContain("| 8 | 50,000 | Redis's one thread |");
  });

  it('runs the replicas section alone with --only replicas', () => {
    const options = parseOptions(['--only', 'replicas']);
    expect(options.sections).toEqual(['replicas']);
    expect(options.redisUrl).toBe('redis://127.0.0.1:6379');
  });
});
