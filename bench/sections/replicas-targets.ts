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
  'local-sessions':
    'the same gateway, counters in Redis, sessions in process (state.driver redis, state.sessions local)',
  'shared-sessions':
    'the same gateway, counters and sessions in Redis (state.driver redis, state.sessions shared)',
  'one-replica': 'one replica (state.driver redis) behind the round-robin proxy',
  'two-replicas': 'two replicas (state.driver redis) behind the round-robin proxy',
};

/** One load target, and the processes whose CPU time its requests cost. */
export interface ReplicasTarget extends EchoEndpoint {
  key: ReplicasTargetKey;
  /** Every gateway process the target's requests reach. */
  gateways: ChildServer[];
  proxy?: ChildServer;
  /** Whether its gateways keep counters (and maybe sessions) in Redis. */
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

/** A gateway's state settings: everything in process, or Redis with sessions shared or kept local. */
type StateSetup = { driver: 'memory' } | { driver: 'redis'; sessions: 'shared' | 'local' };

/**
 * The shared-session cost: three gateways that differ only in `state.*`,
 * each called directly through a session of its own. `shared-sessions`
 * against `local-sessions` is the cost of the sessions alone (both keep the
 * counters in Redis); against `memory` it adds what the counters cost.
 */
export function startSharedCostTargets(
  ctx: BenchContext,
  state: SharedState,
): Promise<ReplicasTargets> {
  return startAll(async (servers) => {
    const memory = await startReplica(ctx, 'gateway-memory-state', state, { driver: 'memory' });
    servers.push(memory.server);
    const local = await startReplica(ctx, 'gateway-local-sessions', state, {
      driver: 'redis',
      sessions: 'local',
    });
    servers.push(local.server);
    const shared = await startReplica(ctx, 'gateway-shared-sessions', state, {
      driver: 'redis',
      sessions: 'shared',
    });
    servers.push(shared.server);
    return Promise.all([
      directTarget('memory', memory.server, memory.port, false),
      directTarget('local-sessions', local.server, local.port, true),
      directTarget('shared-sessions', shared.server, shared.port, true),
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
    const a = await startReplica(ctx, 'replica-a', state, SHARED);
    servers.push(a.server);
    const b = await startReplica(ctx, 'replica-b', state, SHARED);
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

const SHARED: StateSetup = { driver: 'redis', sessions: 'shared' };

/** Gateway (a)'s setup (governance, SQLite ledger, the echo module) with the given state settings. */
function startReplica(
  ctx: BenchContext,
  name: string,
  state: SharedState,
  setup: StateSetup,
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
    extraEnv:
      setup.driver === 'redis'
        ? {
            MCP_SERVER_STATE_DRIVER: 'redis',
            MCP_SERVER_STATE_SESSIONS: setup.sessions,
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
