import { join } from 'node:path';
import { BenchContext, echoModule } from '../lib/context';
import { startGateway } from '../lib/gateway';
import { progress } from '../lib/log';
import { mcpHeaders, openSession } from '../lib/mcp-http';
import { pagedListTimings } from '../lib/paged-timings';
import { msSince } from '../lib/stats';
import { GrowthResults } from '../report/results';
import { BENCH_TOOLS } from '../shared/bench-tool';

/** tools/list over N registered tools on the governed gateway (SQLite ledger). */
export async function runToolsGrowth(
  ctx: BenchContext,
): Promise<NonNullable<GrowthResults['tools']>> {
  const count = ctx.options.toolCount;
  progress(`tools: starting the gateway with ${count} generated tools`);
  const scratch = ctx.compiled.scratch('tools-growth');
  const start = process.hrtime.bigint();
  const { server, port } = await startGateway({
    name: 'gateway-tools',
    governance: true,
    ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
    modules: [echoModule(ctx), ctx.compiled.js('fixtures/many-tools.capability.ts')],
    skillsDir: ctx.compiled.scratch('tools-empty-skills'),
    scratch,
    transport: 'http',
    nodeFlags: ctx.options.nodeFlags,
    extraEnv: { BENCH_TOOL_COUNT: String(count) },
  });
  const startupMs = msSince(start);
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    const timings = await pagedListTimings(
      url,
      mcpHeaders(await openSession(url)),
      'tools/list',
      'tools',
    );
    return { count: count + BENCH_TOOLS.length, startupMs, timings };
  } finally {
    await server.stop();
  }
}
