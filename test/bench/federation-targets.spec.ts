import { parseOptions } from '../../bench/lib/args';
import { federationSection } from '../../bench/report/federation-markdown';
import {
  BenchResults,
  FederationCell,
  FederationResults,
  FederationTargetKey,
} from '../../bench/report/results';
import { evaluateTargets } from '../../bench/report/targets';
import { FEDERATION_LABELS } from '../../bench/sections/federation-targets';

/**
 * The federation section's targets (issue #16, Performance) are computed from
 * the measured cells: federated req/s against the local echo and the SDK HTTP
 * server direct, and federated p99 against the local echo's, per connection count.
 */

function cell(
  target: FederationTargetKey,
  connections: number,
  rps: number,
  p99Ms: number,
): FederationCell {
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
  };
}

function results(cells: FederationCell[]): BenchResults {
  const federation: FederationResults = {
    durationSeconds: 10,
    reps: 3,
    labels: FEDERATION_LABELS,
    maxConcurrency: 256,
    cells,
    gatewayMaxRssMb: 200,
    idle: {
      upstreams: 20,
      listedAfterMs: 4_000,
      gatewayRssMb: 160,
      noUpstreamRssMb: 150,
      childrenRssMb: 1_200,
      children: 20,
    },
  };
  return {
    startedAt: new Date(0),
    command: 'npm run bench -- --only federation',
    loadAtStart: [0, 0, 0],
    waitedForLoadSeconds: 0,
    nodeFlags: { flags: [], source: 'Dockerfile' },
    federation,
  };
}

describe('bench federation targets', () => {
  it('checks each connection count against the local echo and the SDK server direct', () => {
    const checks = evaluateTargets(
      results([
        cell('local', 10, 8_000, 6),
        cell('federated', 10, 4_000, 18),
        cell('sdk-direct', 10, 1_000, 40),
        cell('local', 50, 8_000, 20),
        cell('federated', 50, 3_000, 70),
        cell('sdk-direct', 50, 2_000, 90),
      ]),
    );
    expect(checks.map(({ target, met }) => ({ target, met }))).toEqual([
      { target: 'federated echo req/s ≥ 0.5 × local echo, 10 connections', met: true },
      { target: 'federated echo p99 ≤ 3 × local echo, 10 connections', met: true },
      { target: 'federated echo req/s ≥ 2 × SDK HTTP server direct, 10 connections', met: true },
      { target: 'federated echo req/s ≥ 0.5 × local echo, 50 connections', met: false },
      { target: 'federated echo p99 ≤ 3 × local echo, 50 connections', met: false },
      { target: 'federated echo req/s ≥ 2 × SDK HTTP server direct, 50 connections', met: false },
    ]);
    expect(checks[0].measured).toBe('4,000 vs 8,000 req/s = 0.50×');
  });

  it('reports the idle upstreams beside the gateway with none', () => {
    const markdown = federationSection(
      results([cell('local', 10, 8_000, 6), cell('federated', 10, 4_000, 18)]).federation!,
    );
    expect(markdown).toContain('| no upstream | 150 | 0 | - |');
    expect(markdown).toContain('| 20 idle stdio upstreams | 160 | 20 | 1,200 |');
    // Without the SDK cell its ratio is not invented.
    expect(markdown).toContain('| 10 | 0.50× | 3.00× | n/a |');
  });

  it('runs the federation section alone with --only federation', () => {
    expect(parseOptions(['--only', 'federation']).sections).toEqual(['federation']);
  });
});
