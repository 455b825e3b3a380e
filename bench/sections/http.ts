import { BenchContext } from '../lib/context';
import { loadTest, LoadTestResult } from '../lib/load-test';
import { progress } from '../lib/log';
import { rpc } from '../lib/mcp-http';
import { median, sum } from '../lib/stats';
import { HttpCell, HttpMethod, HttpResults } from '../report/results';
import {
  BENCH_TOOL,
  BENCH_TOOLS,
  ECHO_ARGS,
  ECHO_RESULT_TEXT,
  PRICED_BENCH_TOOL,
} from '../shared/bench-tool';
import { HttpTarget, startHttpTargets, stopHttpTargets } from './http-targets';

const METHODS: HttpMethod[] = ['tools/call', 'tools/call (priced)', 'tools/list'];
const WARMUP_SECONDS = 3;

const callBody = (name: string): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: ECHO_ARGS },
  });

const REQUEST_BODIES: Record<HttpMethod, string> = {
  'tools/call': callBody(BENCH_TOOL.name),
  'tools/call (priced)': callBody(PRICED_BENCH_TOOL.name),
  'tools/list': JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
};

/**
 * The targets a method runs against: the priced call only against gateway
 * (a), the one target with a spend path (a baseline would answer it with its
 * plain echo, already measured as tools/call).
 */
function targetsFor(method: HttpMethod, targets: readonly HttpTarget[]): HttpTarget[] {
  return targets.filter((target) => method !== 'tools/call (priced)' || target.key === 'a');
}

/**
 * HTTP throughput: every (method, connections) scenario runs `reps` times,
 * its targets alternating inside each repetition; medians are reported.
 */
export async function runHttpSection(ctx: BenchContext): Promise<HttpResults> {
  const { duration, reps, connections } = ctx.options;
  progress('http: starting the five targets');
  const targets = await startHttpTargets(ctx);
  try {
    const expected = new Map<string, string>();
    const results = emptyResults(targets, duration, reps);
    for (const method of METHODS) {
      for (const target of targetsFor(method, targets)) {
        const body = await sampleAndVerify(target, method);
        expected.set(`${target.key} ${method}`, body);
        results.targets[target.key].sampleBytes[method] = Buffer.byteLength(body);
      }
    }
    checkSameBytes(expected, 'c', 'e');
    progress(`http: warm-up, ${WARMUP_SECONDS} s per target and method`);
    for (const method of METHODS) {
      for (const target of targetsFor(method, targets)) {
        await run(target, method, connections[0], WARMUP_SECONDS, expected);
      }
    }
    const runs = new Map<string, LoadTestResult[]>();
    for (let rep = 1; rep <= reps; rep++) {
      for (const method of METHODS) {
        for (const conns of connections) {
          for (const target of targetsFor(method, targets)) {
            const result = await run(target, method, conns, duration, expected);
            target.server.sampleRss();
            const key = `${target.key} ${method} ${conns}`;
            runs.set(key, [...(runs.get(key) ?? []), result]);
            progress(
              `http rep ${rep}/${reps} ${method} c=${conns} ${target.key}: ` +
                `${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms`,
            );
          }
        }
      }
    }
    for (const method of METHODS) {
      for (const conns of connections) {
        for (const target of targetsFor(method, targets)) {
          results.cells.push(
            cell(target, method, conns, runs.get(`${target.key} ${method} ${conns}`) ?? []),
          );
        }
      }
    }
    return results;
  } finally {
    await stopHttpTargets(targets);
  }
}

function run(
  target: HttpTarget,
  method: HttpMethod,
  connections: number,
  durationSeconds: number,
  expected: Map<string, string>,
): Promise<LoadTestResult> {
  return loadTest({
    url: target.url,
    headers: target.headers,
    body: REQUEST_BODIES[method],
    connections,
    durationSeconds,
    expectBody: expected.get(`${target.key} ${method}`),
  });
}

/** One request before any load: the answer must be right; its exact body is then expected of every response. */
async function sampleAndVerify(target: HttpTarget, method: HttpMethod): Promise<string> {
  const reply = await rpc(target.url, target.headers, JSON.parse(REQUEST_BODIES[method]));
  const result = reply.message?.result;
  const problem =
    reply.status !== 200
      ? `HTTP ${reply.status}`
      : result === undefined
        ? 'no result'
        : method === 'tools/list'
          ? checkList(result)
          : checkCall(result);
  if (problem !== undefined) {
    throw new Error(
      `${target.label} answered ${method} wrongly (${problem}): ${reply.body.slice(0, 400)}`,
    );
  }
  return reply.body;
}

function checkCall(result: Record<string, unknown>): string | undefined {
  const content = result.content as Array<{ type?: string; text?: string }> | undefined;
  if (result.isError === true) return 'isError';
  return content?.[0]?.text === ECHO_RESULT_TEXT ? undefined : 'wrong echo';
}

function checkList(result: Record<string, unknown>): string | undefined {
  const names = (result.tools as Array<{ name?: string }> | undefined)?.map((tool) => tool.name);
  const expected = BENCH_TOOLS.map((tool) => tool.name);
  return JSON.stringify(names?.sort()) === JSON.stringify(expected.sort())
    ? undefined
    : 'wrong tool list';
}

/** Two targets meant to send the same bytes (the baselines sharing canned-answer) must. */
function checkSameBytes(expected: Map<string, string>, first: string, second: string): void {
  for (const method of METHODS) {
    const one = expected.get(`${first} ${method}`);
    const other = expected.get(`${second} ${method}`);
    if (one !== undefined && other !== undefined && one !== other) {
      throw new Error(
        `(${first}) and (${second}) answered ${method} differently: ${one} / ${other}`,
      );
    }
  }
}

function cell(
  target: HttpTarget,
  method: HttpMethod,
  connections: number,
  runs: LoadTestResult[],
): HttpCell {
  return {
    target: target.key,
    method,
    connections,
    runs,
    rps: median(runs.map((r) => r.requestsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    requests: sum(runs.map((r) => r.requests)),
    non2xx: sum(runs.map((r) => r.non2xx)),
    errors: sum(runs.map((r) => r.errors)),
    timeouts: sum(runs.map((r) => r.timeouts)),
    mismatches: sum(runs.map((r) => r.mismatches)),
    maxRssMb: target.server.maxRssMb,
  };
}

function emptyResults(targets: HttpTarget[], durationSeconds: number, reps: number): HttpResults {
  const entries = targets.map((t) => [t.key, { label: t.label, sampleBytes: {} }]);
  return {
    durationSeconds,
    reps,
    cells: [],
    targets: Object.fromEntries(entries) as HttpResults['targets'],
  };
}
