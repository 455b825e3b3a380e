import Redis from 'ioredis';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { pollUntil } from '../../../test/support/shared-replicas';
import { loadGatewayConfig } from '../../config/config.loader';
import { GovernanceRedis } from '../../governance/redis/governance-redis';
import { McpMetrics } from '../../observability/mcp.metrics';
import { SessionRegistry } from '../session.registry';
import { SessionBus } from './session-bus';
import { SharedSessionStore } from './shared-session.store';

/**
 * `state.sessions` with `state.driver: redis` and the machine's Redis: a
 * session created with `local` stays in the process (no record, no channel),
 * while `shared`, the default, puts its record in Redis.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';

interface Gateway {
  sessions: SessionRegistry;
  store: SharedSessionStore;
  bus: SessionBus;
  close(): void;
}

function metrics(): McpMetrics {
  const registers = [new Registry()];
  return new McpMetrics(
    new Counter({ name: 'requests', help: 'r', labelNames: ['method', 'outcome'], registers }),
    new Histogram({ name: 'duration', help: 'd', labelNames: ['method'], registers }),
    new Gauge({ name: 'sessions', help: 's', labelNames: ['transport'], registers }),
    new Counter({ name: 'refusals', help: 'l', labelNames: ['limit'], registers }),
  );
}

async function startGateway(prefix: string, sessions?: string): Promise<Gateway> {
  // A directory without config/mcp-server.yaml: only these variables count.
  const config = loadGatewayConfig({
    cwd: tmpdir(),
    env: {
      MCP_SERVER_STATE_DRIVER: 'redis',
      MCP_SERVER_STATE_REDIS_URL: REDIS_URL,
      MCP_SERVER_STATE_KEY_PREFIX: prefix,
      ...(sessions === undefined ? {} : { MCP_SERVER_STATE_SESSIONS: sessions }),
    },
  });
  const redis = new GovernanceRedis(config);
  await redis.onModuleInit();
  const store = new SharedSessionStore(config, redis);
  const bus = new SessionBus(config, redis);
  bus.onModuleInit();
  const registry = new SessionRegistry(config, metrics(), store, bus);
  registry.onModuleInit();
  return {
    sessions: registry,
    store,
    bus,
    close: () => {
      registry.onApplicationShutdown();
      bus.onApplicationShutdown();
      redis.onApplicationShutdown();
    },
  };
}

describe('state.sessions', () => {
  let redis: Redis;
  let prefix: string;
  let gateway: Gateway | undefined;

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });

  beforeEach(() => {
    prefix = `owlclaw-test:${randomUUID()}:`;
  });

  afterEach(async () => {
    gateway?.close();
    gateway = undefined;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  afterAll(() => redis.disconnect());

  it('keeps a session created with local in the process: not shared, no record in Redis', async () => {
    gateway = await startGateway(prefix, 'local');
    const session = gateway.sessions.create('streamable-http', 'client-a');
    session.initialized = true;
    await gateway.sessions.persist(session);

    expect(gateway.sessions.isShared(session)).toBe(false);
    expect(gateway.store.enabled).toBe(false);
    expect(gateway.bus.enabled).toBe(false);
    expect(await redis.exists(`${prefix}session:${session.id}`)).toBe(0);
    expect(await redis.keys(`${prefix}session:*`)).toEqual([]);
    // Another process cannot make a copy of it: it is found only where it was created.
    const other = await startGateway(prefix, 'local');
    try {
      expect(await other.sessions.find(session.id)).toBeUndefined();
    } finally {
      other.close();
    }
  });

  it('shares a session by default: its record is in Redis and another replica finds it', async () => {
    gateway = await startGateway(prefix);
    const session = gateway.sessions.create('streamable-http', 'client-a');
    session.initialized = true;
    await gateway.sessions.persist(session);

    expect(gateway.sessions.isShared(session)).toBe(true);
    expect(gateway.bus.enabled).toBe(true);
    expect(await redis.exists(`${prefix}session:${session.id}`)).toBe(1);
    // The bus listens on the session channel (its SUBSCRIBE settles on a connection of its own).
    await pollUntil(
      async () => (await redis.pubsub('NUMSUB', `${prefix}sessions`))[1],
      (subscribers) => Number(subscribers) === 1,
      'the session channel subscription',
    );
    const other = await startGateway(prefix, 'shared');
    try {
      expect((await other.sessions.find(session.id))?.clientId).toBe('client-a');
    } finally {
      other.close();
    }
  });

  it('refuses a value other than shared or local, naming the key', () => {
    expect(() =>
      loadGatewayConfig({ cwd: tmpdir(), env: { MCP_SERVER_STATE_SESSIONS: 'sticky' } }),
    ).toThrow(/state\.sessions/);
  });
});
