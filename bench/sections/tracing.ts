import { BenchContext } from '../lib/context';
import { medianCpu, startCpuReading } from '../lib/cpu-per-request';
import { echoCallBody, verifiedEchoBody } from '../lib/echo-call';
import { loadTest, LoadTestResult } from '../lib/load-test';
import { summarizeLoad } from '../lib/load-summary';
import { progress } from '../lib/log';
import { OtlpSink } from '../lib/otlp-sink';
import { CpuPerRequest, TracingCell, TracingResults } from '../report/results';
import {
  startTracingTargets,
  stopTracingTargets,
  TRACING_LABELS,
  TracingTarget,
} from './tracing-targets';

const WARMUP_SECONDS = 3;

interface MeasuredRun {
  result: LoadTestResult;
  cpu: CpuPerRequest;
}

/**
 * Tracing: tools/call of the echo on three gateways that differ only in
 * `tracing.*` (off, on exporting every span to an OTLP sink in this process
 * in the default protocol, http/protobuf, and on with nothing sampled), the
 * targets alternating in every repetition, medians reported with the
 * gateway's CPU time per request. The spans the sink received per traced
 * request tell whether the exporter kept up.
 */
export async function runTracingSection(ctx: BenchContext): Promise<TracingResults> {
  const { duration, reps, connections } = ctx.options;
  const sink = await OtlpSink.start();
  progress('tracing: starting three gateways (tracing off, on, on with sample_ratio 0)');
  const targets = await startTracingTargets(ctx, sink.tracesUrl);
  const runs = new Map<string, MeasuredRun[]>();
  let tracedRequests = 0;
  try {
    const expected = new Map<string, string>();
    for (const target of targets) expected.set(target.key, await verifiedEchoBody(target));
    tracedRequests++;
    progress(`tracing: warm-up, ${WARMUP_SECONDS} s per target`);
    for (const target of targets) {
      const warm = await measuredRun(target, connections[0], WARMUP_SECONDS, expected);
      if (target.key === 'on') tracedRequests += warm.result.requests;
    }
    for (let rep = 1; rep <= reps; rep++) {
      for (const conns of connections) {
        for (const target of targets) {
          const run = await measuredRun(target, conns, duration, expected);
          if (target.key === 'on') tracedRequests += run.result.requests;
          const key = `${target.key} ${conns}`;
          runs.set(key, [...(runs.get(key) ?? []), run]);
          progress(
            `tracing rep ${rep}/${reps} c=${conns} ${target.key}: ` +
              `${run.result.requestsPerSecond.toFixed(0)} req/s, p99 ${run.result.p99Ms} ms, ` +
              `${run.cpu.gatewaysUs.toFixed(0)} µs CPU/request`,
          );
        }
      }
    }
  } finally {
    await stopTracingTargets(targets);
    await sink.stop();
  }
  return {
    durationSeconds: duration,
    reps,
    labels: TRACING_LABELS,
    cells: connections.flatMap((conns) =>
      targets.map((target) => cell(target, conns, runs.get(`${target.key} ${conns}`) ?? [])),
    ),
    // Every traced request (its verification, warm-up and runs) against what reached the sink.
    spansPerTracedRequest: tracedRequests > 0 ? sink.counts.spans / tracedRequests : NaN,
    exports: sink.counts.exports,
  };
}

async function measuredRun(
  target: TracingTarget,
  connections: number,
  durationSeconds: number,
  expected: Map<string, string>,
): Promise<MeasuredRun> {
  const cpuSince = await startCpuReading({ gateways: [target.gateway] });
  const result = await loadTest({
    url: target.url,
    headers: target.headers,
    body: echoCallBody(target.tool),
    connections,
    durationSeconds,
    expectBody: expected.get(target.key),
  });
  return { result, cpu: await cpuSince(result.requests) };
}

function cell(target: TracingTarget, connections: number, runs: MeasuredRun[]): TracingCell {
  const results = runs.map((run) => run.result);
  return {
    target: target.key,
    connections,
    runs: results,
    ...summarizeLoad(results),
    gatewayCpuUs: medianCpu(runs.map((run) => run.cpu)).gatewaysUs,
  };
}
