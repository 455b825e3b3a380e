import { join } from 'node:path';
import { ChildServer } from '../lib/child';
import { BenchContext, echoModule } from '../lib/context';
import { startGateway } from '../lib/gateway';
import { progress } from '../lib/log';
import { PROTOCOL_VERSION } from '../lib/mcp-http';
import { median, msSince } from '../lib/stats';
import { StdioDriver, StdioReply } from '../lib/stdio-driver';
import { StdioCell, StdioResults } from '../report/results';
import { BENCH_TOOL, ECHO_ARGS, ECHO_RESULT_TEXT } from '../shared/bench-tool';

const IN_FLIGHT = [1, 100];
const TARGETS: Array<StdioCell['target']> = ['gateway', 'sdk'];

interface RunOutcome {
  /** The first `calls` calls of the fresh process (JIT compilation, first GCs): reported, not targeted. */
  coldCallsPerSecond: number;
  callsPerSecond: number;
  cpuUsPerCall: number;
  errors: number;
  rssMb: number;
}

/**
 * Stdio round trips: `calls` tools/call one at a time, and with 100 in
 * flight, against the governed gateway and the SDK's stdio server. Every run
 * gets a fresh server process, so no run inherits another's state; targets
 * alternate. A run times the process's first `calls` calls (cold: V8 is
 * still compiling the call path on its helper threads, and both servers are
 * far below their own steady rate) and then `calls` more (steady state, what
 * a long-running server serves at, and what the targets compare).
 */
export async function runStdioSection(ctx: BenchContext): Promise<StdioResults> {
  const { stdioCalls: calls, stdioReps: reps } = ctx.options;
  const outcomes = new Map<string, RunOutcome[]>();
  for (let rep = 1; rep <= reps; rep++) {
    for (const inFlight of IN_FLIGHT) {
      for (const target of TARGETS) {
        const outcome = await measureRun(ctx, target, calls, inFlight);
        const key = `${target} ${inFlight}`;
        outcomes.set(key, [...(outcomes.get(key) ?? []), outcome]);
        progress(
          `stdio rep ${rep}/${reps} ${target} in-flight ${inFlight}: ` +
            `${outcome.callsPerSecond.toFixed(0)} calls/s`,
        );
      }
    }
  }
  const cells: StdioCell[] = [];
  for (const inFlight of IN_FLIGHT) {
    for (const target of TARGETS) {
      const runs = outcomes.get(`${target} ${inFlight}`) ?? [];
      cells.push({
        target,
        inFlight,
        calls,
        runs: runs.map((r) => r.callsPerSecond),
        callsPerSecond: median(runs.map((r) => r.callsPerSecond)),
        coldCallsPerSecond: median(runs.map((r) => r.coldCallsPerSecond)),
        cpuUsPerCall: median(runs.map((r) => r.cpuUsPerCall)),
        errors: runs.reduce((total, r) => total + r.errors, 0),
        maxRssMb: Math.max(...runs.map((r) => r.rssMb)),
      });
    }
  }
  return { calls, reps, cells };
}

async function measureRun(
  ctx: BenchContext,
  target: StdioCell['target'],
  calls: number,
  inFlight: number,
): Promise<RunOutcome> {
  const server = await startServer(ctx, target);
  try {
    const driver = await handshake(target, server);
    const cold = await drive(driver, calls, inFlight);
    const cpuBefore = server.cpuMs();
    const { ms, errors } = await drive(driver, calls, inFlight);
    const cpuUsPerCall = ((server.cpuMs() - cpuBefore) * 1000) / calls;
    return {
      coldCallsPerSecond: (calls / cold.ms) * 1000,
      callsPerSecond: (calls / ms) * 1000,
      cpuUsPerCall,
      errors: errors + cold.errors,
      rssMb: server.sampleRss(),
    };
  } finally {
    await server.stop();
  }
}

async function startServer(ctx: BenchContext, target: StdioCell['target']): Promise<ChildServer> {
  const scratch = ctx.compiled.scratch(`stdio-${target}-${Date.now()}`);
  if (target === 'gateway') {
    const { server } = await startGateway({
      name: 'gateway-stdio',
      governance: true,
      ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
      modules: [echoModule(ctx)],
      skillsDir: ctx.compiled.scratch('stdio-empty-skills'),
      scratch,
      transport: 'stdio',
      nodeFlags: ctx.options.nodeFlags,
    });
    return server;
  }
  const { server } = await ChildServer.start({
    name: 'sdk-stdio',
    nodeFlags: ctx.options.nodeFlags,
    args: [ctx.compiled.js('baselines/sdk-stdio-server.ts')],
    logFile: join(scratch, 'sdk-stdio.stderr.log'),
    stdio: true,
  });
  return server;
}

async function handshake(target: string, server: ChildServer): Promise<StdioDriver> {
  const driver = new StdioDriver(server.process);
  const init = await driver.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'owlclaw-bench', version: '1.0.0' },
  });
  if (!init.result) throw new Error(`${target}: initialize failed: ${JSON.stringify(init.error)}`);
  driver.notify('notifications/initialized');
  const check = await callEcho(driver);
  const problem = callProblem(check);
  if (problem) {
    throw new Error(
      `${target}: tools/call answered wrongly (${problem}): ${JSON.stringify(check)}`,
    );
  }
  return driver;
}

function callEcho(driver: StdioDriver): Promise<StdioReply> {
  return driver.request('tools/call', { name: BENCH_TOOL.name, arguments: ECHO_ARGS });
}

function callProblem(reply: StdioReply): string | undefined {
  if (reply.error) return `error ${reply.error.code}`;
  const content = reply.result?.content as Array<{ text?: string }> | undefined;
  if (reply.result?.isError === true) return 'isError';
  return content?.[0]?.text === ECHO_RESULT_TEXT ? undefined : 'wrong echo';
}

/** `calls` round trips with at most `inFlight` outstanding; every answer is checked. */
async function drive(
  driver: StdioDriver,
  calls: number,
  inFlight: number,
): Promise<{ ms: number; errors: number }> {
  let started = 0;
  let errors = 0;
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (started < calls) {
      started++;
      if (callProblem(await callEcho(driver)) !== undefined) errors++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, calls) }, worker));
  return { ms: msSince(start), errors };
}
