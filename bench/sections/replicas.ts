import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { BenchContext } from '../lib/context';
import { medianCpu, startCpuReading } from '../lib/cpu-per-request';
import { echoCallBody, verifiedEchoBody } from '../lib/echo-call';
import { loadTest, LoadTestResult } from '../lib/load-test';
import { summarizeLoad } from '../lib/load-summary';
import { progress } from '../lib/log';
import { RedisProbe } from '../lib/redis-probe';
import { CpuPerRequest, ReplicasCell, ReplicasResults } from '../report/results';
import {
  REPLICAS_LABELS,
  ReplicasTarget,
  ReplicasTargets,
  SharedState,
  startScaleOutTargets,
  startSharedCostTargets,
} from './replicas-targets';

const WARMUP_SECONDS = 3;

/**
 * Replicas: first what Redis-backed sessions cost one gateway against
 * in-process ones (both with counters in Redis, and everything in process
 * beside them), then two replicas behind a round-robin proxy
 * against one behind the same proxy. Every (connections) scenario runs
 * `reps` times with the targets alternating, medians reported, with the CPU
 * time each process on the path spent per request.
 */
export async function runReplicasSection(ctx: BenchContext): Promise<ReplicasResults> {
  const redis = await RedisProbe.connect(ctx.options.redisUrl);
  const state: SharedState = {
    redisUrl: ctx.options.redisUrl,
    keyPrefix: `owlclaw-bench-${randomUUID().slice(0, 8)}:`,
  };
  try {
    progress('replicas: one gateway in process, one with counters in Redis, one with sessions too');
    const sharedCost = await measure(ctx, redis, await startSharedCostTargets(ctx, state));
    progress('replicas: two replicas behind a round-robin proxy, and one behind it');
    const scaleOut = await measure(ctx, redis, await startScaleOutTargets(ctx, state));
    return {
      durationSeconds: ctx.options.duration,
      reps: ctx.options.reps,
      labels: REPLICAS_LABELS,
      sharedCost,
      scaleOut,
      cores: cpus().length,
    };
  } finally {
    const deleted = await redis.deleteKeys(state.keyPrefix);
    progress(`replicas: deleted ${deleted} Redis keys under ${state.keyPrefix}`);
    await redis.close();
  }
}

interface MeasuredRun {
  result: LoadTestResult;
  cpu: CpuPerRequest;
}

/** Verify, warm up, then the alternating reps; the targets are stopped at the end. */
async function measure(
  ctx: BenchContext,
  redis: RedisProbe,
  started: ReplicasTargets,
): Promise<ReplicasCell[]> {
  const { duration, reps, connections } = ctx.options;
  const runs = new Map<string, MeasuredRun[]>();
  try {
    const expected = new Map<string, string>();
    for (const target of started.targets) {
      expected.set(target.key, await verifiedEchoBody(target));
    }
    progress(`replicas: warm-up, ${WARMUP_SECONDS} s per target`);
    for (const target of started.targets) {
      await measuredRun(target, redis, connections[0], WARMUP_SECONDS, expected.get(target.key));
    }
    for (let rep = 1; rep <= reps; rep++) {
      for (const conns of connections) {
        for (const target of started.targets) {
          const run = await measuredRun(target, redis, conns, duration, expected.get(target.key));
          const key = `${target.key} ${conns}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
          progress(
            `replicas rep ${rep}/${reps} c=${conns} ${target.key}: ` +
              `${run.result.requestsPerSecond.toFixed(0)} req/s, p99 ${run.result.p99Ms} ms, ` +
              `gateways ${run.cpu.gatewaysUs.toFixed(0)} µs CPU/request`,
          );
        }
      }
    }
  } finally {
    await started.stop();
  }
  return connections.flatMap((conns) =>
    started.targets.map((target) => cell(target, conns, runs.get(`${target.key} ${conns}`) ?? [])),
  );
}

async function measuredRun(
  target: ReplicasTarget,
  redis: RedisProbe,
  connections: number,
  durationSeconds: number,
  expectBody: string | undefined,
): Promise<MeasuredRun> {
  const cpuSince = await startCpuReading({
    gateways: target.gateways,
    proxy: target.proxy,
    redisCpuMs: target.usesRedis ? () => redis.cpuMs() : undefined,
  });
  const result = await loadTest({
    url: target.url,
    headers: target.headers,
    body: echoCallBody(target.tool),
    connections,
    durationSeconds,
    expectBody,
  });
  return { result, cpu: await cpuSince(result.requests) };
}

function cell(target: ReplicasTarget, connections: number, runs: MeasuredRun[]): ReplicasCell {
  const results = runs.map((run) => run.result);
  return {
    target: target.key,
    connections,
    runs: results,
    ...summarizeLoad(results),
    cpu: medianCpu(runs.map((run) => run.cpu)),
  };
}
