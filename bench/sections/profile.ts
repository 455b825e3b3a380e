import { copyFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BenchContext, echoModule } from '../lib/context';
import { summarizeProfile } from '../lib/cpu-profile';
import { startGateway } from '../lib/gateway';
import { loadTest, LoadTestResult } from '../lib/load-test';
import { progress } from '../lib/log';
import { Headers, mcpHeaders, openSession } from '../lib/mcp-http';
import { REPO_ROOT } from '../lib/paths';
import { ProfileResults } from '../report/results';
import { BENCH_TOOL, ECHO_ARGS } from '../shared/bench-tool';

const CONNECTIONS = 50;
const CALL_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: BENCH_TOOL.name, arguments: ECHO_ARGS },
});

/**
 * CPU profile of gateway (a) — governance and SQLite ledger on — under
 * tools/call load (node --cpu-prof): a first load period, then the profiled
 * one (so the profile shows a gateway that has already served calls),
 * summarised by self and inclusive time.
 */
export async function runProfile(ctx: BenchContext): Promise<ProfileResults> {
  const scratch = ctx.compiled.scratch('profile');
  const profileDir = join(scratch, 'cpuprofile');
  const { server, port } = await startGateway({
    name: 'gateway-profiled',
    governance: true,
    ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
    modules: [echoModule(ctx)],
    skillsDir: ctx.compiled.scratch('profile-empty-skills'),
    scratch,
    transport: 'http',
    nodeFlags: [...ctx.options.nodeFlags, '--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  });
  let before: LoadTestResult;
  let during: LoadTestResult;
  let loadStart = 0;
  let loadEnd = 0;
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    const headers = mcpHeaders(await openSession(url));
    const seconds = ctx.options.duration;
    progress(`profile: ${seconds} s of tools/call load, then ${seconds} s profiled`);
    before = await load(url, headers, seconds);
    loadStart = performance.now();
    during = await load(url, headers, seconds);
    loadEnd = performance.now();
  } finally {
    await server.stop();
  }
  const exited = performance.now();
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('the profiled gateway wrote no .cpuprofile');
  if (ctx.options.profileOut !== undefined) {
    const kept = resolve(REPO_ROOT, ctx.options.profileOut);
    copyFileSync(join(profileDir, file), kept);
    progress(`profile: raw profile kept at ${kept}`);
  }
  return {
    connections: CONNECTIONS,
    callsBefore: before.requests,
    callsDuring: during.requests,
    rpsBefore: before.requestsPerSecond,
    rpsDuring: during.requestsPerSecond,
    summary: summarizeProfile(join(profileDir, file), REPO_ROOT, {
      fromEndMs: exited - loadStart,
      toEndMs: exited - loadEnd,
    }),
  };
}

function load(url: string, headers: Headers, durationSeconds: number): Promise<LoadTestResult> {
  return loadTest({ url, headers, body: CALL_BODY, connections: CONNECTIONS, durationSeconds });
}
