import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ChildServer } from '../lib/child';
import { BenchContext, echoModule } from '../lib/context';
import { startGateway } from '../lib/gateway';
import { waitForListedTools } from '../lib/listed-tools';
import { mcpHeaders, openSession } from '../lib/mcp-http';
import { descendantPids, rssMb } from '../lib/process-tree';
import { sum } from '../lib/stats';
import { writeStdioRegistry } from '../lib/upstream-registry';
import { IdleUpstreamsRss } from '../report/results';
import { BENCH_TOOL } from '../shared/bench-tool';

export const IDLE_UPSTREAMS = 20;
const LISTING_TIMEOUT_MS = 120_000;
/** Left after the last listing before RSS is read, so start-up work has finished. */
const SETTLE_MS = 2_000;

/**
 * RSS of a governed gateway with IDLE_UPSTREAMS stdio upstreams (the bench's
 * SDK stdio server, `warm: true`), read once every upstream tool is listed
 * and nothing has been called, beside the same gateway with no upstream.
 */
export async function measureIdleUpstreams(ctx: BenchContext): Promise<IdleUpstreamsRss> {
  const none = await idleGateway(ctx, 0);
  const many = await idleGateway(ctx, IDLE_UPSTREAMS);
  return { ...many, noUpstreamRssMb: none.gatewayRssMb };
}

async function idleGateway(
  ctx: BenchContext,
  upstreams: number,
): Promise<Omit<IdleUpstreamsRss, 'noUpstreamRssMb'>> {
  const scratch = ctx.compiled.scratch(`federation-idle-${upstreams}`);
  const ids = Array.from({ length: upstreams }, (_, i) => `idle${String(i + 1).padStart(2, '0')}`);
  const registry = writeStdioRegistry(
    join(scratch, 'mcp.d'),
    ids.map((serverId) => ({
      serverId,
      script: ctx.compiled.js('baselines/sdk-stdio-server.ts'),
      nodeFlags: ctx.options.nodeFlags,
      allowedTools: [BENCH_TOOL.name],
      warm: true,
      maxConcurrency: 8,
    })),
  );
  const { server, port } = await startGateway({
    name: `gateway-idle-${upstreams}`,
    governance: true,
    ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
    modules: [echoModule(ctx)],
    skillsDir: ctx.compiled.scratch('federation-empty-skills'),
    scratch,
    transport: 'http',
    nodeFlags: ctx.options.nodeFlags,
    extraEnv: { MCP_SERVER_UPSTREAMS_REGISTRY_DIR: registry },
  });
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    const headers = mcpHeaders(await openSession(url));
    const names = [BENCH_TOOL.name, ...ids.map((id) => `${id}__${BENCH_TOOL.name}`)];
    const listedAfterMs = await waitForListedTools(url, headers, names, LISTING_TIMEOUT_MS);
    await delay(SETTLE_MS);
    return { upstreams, listedAfterMs, gatewayRssMb: server.sampleRss(), ...childrenRss(server) };
  } finally {
    await server.stop();
  }
}

/** Every process under the gateway: an upstream is a small sh guard and the server it runs. */
function childrenRss(server: ChildServer): { childrenRssMb: number; children: number } {
  const pids = descendantPids(server.pid);
  return { childrenRssMb: sum(pids.map(rssMb).filter(Number.isFinite)), children: pids.length };
}
