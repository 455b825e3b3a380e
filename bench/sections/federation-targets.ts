import { join } from 'node:path';
import { ChildServer } from '../lib/child';
import { BenchContext, echoModule } from '../lib/context';
import { startGateway } from '../lib/gateway';
import { waitForListedTools } from '../lib/listed-tools';
import { Headers, mcpHeaders, openSession } from '../lib/mcp-http';
import { writeStdioRegistry } from '../lib/upstream-registry';
import { FederationTargetKey } from '../report/results';
import { BENCH_TOOL } from '../shared/bench-tool';

/** The benchmarked upstream's server_id, so its echo is exposed as `fed__bench_echo`. */
const UPSTREAM_ID = 'fed';
export const FEDERATED_TOOL = `${UPSTREAM_ID}__${BENCH_TOOL.name}`;
/** Above the largest connection count, so the per-server semaphore never queues a call. */
export const UPSTREAM_MAX_CONCURRENCY = 256;
const LISTING_TIMEOUT_MS = 60_000;

export interface FederationTarget {
  key: FederationTargetKey;
  label: string;
  url: string;
  headers: Headers;
  /** The tool each request calls. */
  tool: string;
}

export const FEDERATION_LABELS: Record<FederationTargetKey, string> = {
  local: "gateway's own echo, governance + ledger (SQLite)",
  federated: 'echo on an SDK stdio upstream, through the same gateway',
  'sdk-direct': 'SDK stateless Streamable HTTP, called directly',
};

export interface FederationTargets {
  targets: FederationTarget[];
  /** The gateway serving both the local and the federated target. */
  gateway: ChildServer;
  stop(): Promise<void>;
}

/**
 * One governed gateway (ledger on) with the local echo module and one stdio
 * upstream (bench/baselines/sdk-stdio-server.ts: McpServer + StdioServerTransport
 * serving the same echo), plus the SDK's Streamable HTTP server (baseline d)
 * in a process of its own. The gateway is used once its upstream tool is listed.
 */
export async function startFederationTargets(ctx: BenchContext): Promise<FederationTargets> {
  const scratch = ctx.compiled.scratch('federation');
  const servers: ChildServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    const registry = writeStdioRegistry(join(scratch, 'mcp.d'), [
      {
        serverId: UPSTREAM_ID,
        script: ctx.compiled.js('baselines/sdk-stdio-server.ts'),
        nodeFlags: ctx.options.nodeFlags,
        allowedTools: [BENCH_TOOL.name],
        warm: true,
        maxConcurrency: UPSTREAM_MAX_CONCURRENCY,
      },
    ]);
    const { server: gateway, port } = await startGateway({
      name: 'gateway-federating',
      governance: true,
      ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
      modules: [echoModule(ctx)],
      skillsDir: ctx.compiled.scratch('federation-empty-skills'),
      scratch,
      transport: 'http',
      nodeFlags: ctx.options.nodeFlags,
      extraEnv: { MCP_SERVER_UPSTREAMS_REGISTRY_DIR: registry },
    });
    servers.push(gateway);
    const gatewayUrl = `http://127.0.0.1:${port}/mcp`;
    const gatewayHeaders = mcpHeaders(await openSession(gatewayUrl));
    await waitForListedTools(gatewayUrl, gatewayHeaders, [FEDERATED_TOOL], LISTING_TIMEOUT_MS);
    const { server: sdk, port: sdkPort } = await ChildServer.start({
      name: 'sdk-http-direct',
      nodeFlags: ctx.options.nodeFlags,
      args: [ctx.compiled.js('baselines/sdk-http-server.ts')],
      logFile: join(scratch, 'sdk-http-direct.stderr.log'),
    });
    servers.push(sdk);
    const sdkUrl = `http://127.0.0.1:${sdkPort}/mcp`;
    const targets = [
      target('local', gatewayUrl, gatewayHeaders, BENCH_TOOL.name),
      target('federated', gatewayUrl, gatewayHeaders, FEDERATED_TOOL),
      target('sdk-direct', sdkUrl, mcpHeaders(), BENCH_TOOL.name),
    ];
    return { targets, gateway, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function target(
  key: FederationTargetKey,
  url: string,
  headers: Headers,
  tool: string,
): FederationTarget {
  return { key, label: FEDERATION_LABELS[key], url, headers, tool };
}
