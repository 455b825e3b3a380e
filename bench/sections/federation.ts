import { BenchContext } from '../lib/context';
import { echoCallBody, verifiedEchoBody } from '../lib/echo-call';
import { loadTest, LoadTestResult } from '../lib/load-test';
import { progress } from '../lib/log';
import { summarizeLoad } from '../lib/load-summary';
import { FederationCell, FederationResults } from '../report/results';
import { IDLE_UPSTREAMS, measureIdleUpstreams } from './federation-idle';
import {
  FEDERATION_LABELS,
  FederationTarget,
  startFederationTargets,
  UPSTREAM_MAX_CONCURRENCY,
} from './federation-targets';

const WARMUP_SECONDS = 3;

/**
 * Federation: tools/call of the same trivial echo as the gateway's own tool,
 * as a tool of an SDK stdio upstream through that gateway, and on the SDK's
 * Streamable HTTP server directly; every (connections) scenario runs `reps`
 * times with the three targets alternating, medians reported. Then the RSS
 * of a gateway with 20 idle stdio upstreams.
 */
export async function runFederationSection(ctx: BenchContext): Promise<FederationResults> {
  const { duration, reps, connections } = ctx.options;
  progress('federation: starting the gateway with one stdio upstream, and the SDK HTTP server');
  const started = await startFederationTargets(ctx);
  const runs = new Map<string, LoadTestResult[]>();
  let gatewayMaxRssMb = 0;
  try {
    const expected = new Map<string, string>();
    for (const target of started.targets) {
      expected.set(target.key, await verifiedEchoBody(target));
    }
    progress(`federation: warm-up, ${WARMUP_SECONDS} s per target`);
    for (const target of started.targets) {
      await run(target, connections[0], WARMUP_SECONDS, expected.get(target.key));
    }
    for (let rep = 1; rep <= reps; rep++) {
      for (const conns of connections) {
        for (const target of started.targets) {
          const result = await run(target, conns, duration, expected.get(target.key));
          gatewayMaxRssMb = Math.max(gatewayMaxRssMb, started.gateway.sampleRss());
          const key = `${target.key} ${conns}`;
          runs.set(key, [...(runs.get(key) ?? []), result]);
          progress(
            `federation rep ${rep}/${reps} c=${conns} ${target.key}: ` +
              `${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms`,
          );
        }
      }
    }
  } finally {
    await started.stop();
  }
  const cells = connections.flatMap((conns) =>
    started.targets.map((target) => cell(target, conns, runs.get(`${target.key} ${conns}`) ?? [])),
  );
  progress(`federation: RSS of a gateway with ${IDLE_UPSTREAMS} idle stdio upstreams`);
  const idle = await measureIdleUpstreams(ctx);
  return {
    durationSeconds: duration,
    reps,
    labels: FEDERATION_LABELS,
    maxConcurrency: UPSTREAM_MAX_CONCURRENCY,
    cells,
    gatewayMaxRssMb,
    idle,
  };
}

function run(
  target: FederationTarget,
  connections: number,
  durationSeconds: number,
  expectBody: string | undefined,
): Promise<LoadTestResult> {
  return loadTest({
    url: target.url,
    headers: target.headers,
    body: echoCallBody(target.tool),
    connections,
    durationSeconds,
    expectBody,
  });
}

function cell(
  target: FederationTarget,
  connections: number,
  runs: LoadTestResult[],
): FederationCell {
  return { target: target.key, connections, runs, ...summarizeLoad(runs) };
}
