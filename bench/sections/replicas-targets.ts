import { join } from 'node:path';
import { ChildServer } from '../lib/child';
import { BenchContext, echoModule } from '../lib/context';
import { EchoEndpoint } from '../lib/echo-call';
import { startGateway } from '../lib/gateway';
import { mcpHeaders, openSession } from '../lib/mcp-http';
import { ReplicasTargetKey } from '../report/results';
import { BENCH_TOOL } from '../shared/bench-tool';

export const REPLICAS_LABELS: Record<ReplicasTargetKey, string> = {
  memory: 'one gateway, sessions and counters in process (state.driver memory)',
  redis: 'the same gateway, sessions and counters in Redis (state.driver redis)',
  'one-replica': 'one replica (state.driver redis) behind the round-robin proxy',
  'two-replicas': 'two replicas (state.driver redis) behind the round-robin proxy',
};

/** One load target, and the processes whose CPU time its requests cost. */
export interface ReplicasTarget extends EchoEndpoint {
  key: ReplicasTargetKey;
  /** Every gateway process the target's requests reach. */
  gateways: ChildServer[];
  proxy?: ChildServer;
  /** Whether its gateways keep sessions and counters in Redis. */
  usesRedis: boolean;
}

export interface ReplicasTargets {
  targets: ReplicasTarget[];
  stop(): Promise<void>;
}

/** Where the gateways of one run meet in Redis: the run's own key prefix. */
export interface SharedState {
  redisUrl: string;
  keyPrefix: string;
}

/**
 * The shared-session cost: two gateways that differ only in `state.driver`
 * (memory, redis), each called directly through a session of its own.
 */
export function startSharedCostTargets(
  ctx: BenchContext,
  state: SharedState,
): Promise<ReplicasTargets> {
  return startAll(async (servers) => {
    const memory = await startReplica(ctx, 'gateway-memory-state', undefined);
    servers.push(memory.server);
    const redis = await startReplica(ctx, 'gateway-redis-state', state);
    servers.push(redis.server);
    return Promise.all([
      directTarget('memory', memory.server, memory.port, false),
      directTarget('redis', redis.server, redis.port, true),
    ]);
  });
}

/**
 * Scale-out: two redis-mode replicas; one proxy in front of the first alone,
 * another in front of both. Each proxy is a process of its own, and the
 * session of each target is opened through its proxy, as a client would.
 */
export function startScaleOutTargets(
  ctx: BenchContext,
  state: SharedState,
): Promise<ReplicasTargets> {
  return startAll(async (servers) => {
    const a = await startReplica(ctx, 'replica-a', state);
    servers.push(a.server);
    const b = await startReplica(ctx, 'replica-b', state);
    servers.push(b.server);
    const backend = (port: number) => `http://127.0.0.1:${port}`;
    const alone = await startProxy(ctx, 'proxy-one-replica', [backend(a.port)]);
    servers.push(alone.server);
    const both = await startProxy(ctx, 'proxy-two-replicas', [backend(a.port), backend(b.port)]);
    servers.push(both.server);
    return Promise.all([
      proxiedTarget('one-replica', [a.server], alone),
      proxiedTarget('two-replicas', [a.server, b.server], both),
    ]);
  });
}

/** Runs `start`, stopping whatever it started if it fails part way. */
async function startAll(
  start: (servers: ChildServer[]) => Promise<ReplicasTarget[]>,
): Promise<ReplicasTargets> {
  const servers: ChildServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    return { targets: await start(servers), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Gateway (a)'s setup (governance, SQLite ledger, the echo module) with the given state driver. */
function startReplica(
  ctx: BenchContext,
  name: string,
  state: SharedState | undefined,
): Promise<{ server: ChildServer; port: number }> {
  const scratch = ctx.compiled.scratch(join('replicas', name));
  return startGateway({
    name,
    governance: true,
    ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
    modules: [echoModule(ctx)],
    skillsDir: ctx.compiled.scratch('replicas-empty-skills'),
    scratch,
    transport: 'http',
    nodeFlags: ctx.options.nodeFlags,
    extraEnv: state
      ? {
          MCP_SERVER_STATE_DRIVER: 'redis',
          MCP_SERVER_STATE_REDIS_URL: state.redisUrl,
          MCP_SERVER_STATE_KEY_PREFIX: state.keyPrefix,
        }
      : { MCP_SERVER_STATE_DRIVER: 'memory' },
  });
}

function startProxy(
  ctx: BenchContext,
  name: string,
  backends: string[],
): Promise<{ server: ChildServer; port: number }> {
  return ChildServer.start({
    name,
    nodeFlags: ctx.options.nodeFlags,
    args: [ctx.compiled.js('shared/round-robin-proxy-main.ts'), ...backends],
    logFile: join(ctx.compiled.scratch('replicas'), `${name}.stderr.log`),
  });
}

async function directTarget(
  key: ReplicasTargetKey,
  gateway: ChildServer,
  port: number,
  usesRedis: boolean,
): Promise<ReplicasTarget> {
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    key,
    label: REPLICAS_LABELS[key],
    url,
    headers: mcpHeaders(await openSession(url)),
    tool: BENCH_TOOL.name,
    gateways: [gateway],
    usesRedis,
  };
}

async function proxiedTarget(
  key: ReplicasTargetKey,
  gateways: ChildServer[],
  proxy: { server: ChildServer; port: number },
): Promise<ReplicasTarget> {
  const url = `http://127.0.0.1:${proxy.port}/mcp`;
  return {
    key,
    label: REPLICAS_LABELS[key],
    url,
    headers: mcpHeaders(await openSession(url)),
    tool: BENCH_TOOL.name,
    gateways,
    proxy: proxy.server,
    usesRedis: true,
  };
}
