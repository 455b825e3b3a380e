import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { DeepPartial } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import {
  ADMIN_HEALTH_MAX_LISTED_SERVERS,
  HEALTH_CHECK_TIMEOUT_MS,
} from '../../src/health/health.constants';
import { SqliteTaskStore } from '../../src/tasks/sqlite-task.store';
import { TaskStore } from '../../src/tasks/task.store';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { writeEchoRegistryFile } from '../support/compiled-echo-upstream';
import { HttpGatewayChild } from '../support/http-child';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { freePort, RedisServer } from '../support/redis-server';
import { programCheck, servicesAvailable } from '../support/service-availability';
import { testGatewayEnv } from '../support/test-defaults';

/**
 * #18 item 5: /health stays a liveness answer without I/O; /health/ready
 * and GET /admin/health list every dependency (gateway, ledger, task store
 * and queue, upstreams, Redis in redis mode) with status and latency, and
 * fail on the ones that are readiness-fatal. A dependency that hangs (a TCP
 * server that accepts and never answers, configured as Redis) costs a probe
 * its timeout, not a hang.
 */

const TOKEN = 'health-admin-token-0123456789abcdef';
const DEPENDENCIES = ['gateway', 'ledger', 'task_store', 'task_queue', 'upstreams'];

type Json = Record<string, unknown>;
interface Check {
  status: 'up' | 'down';
  latencyMs: number;
  reason?: string;
  [key: string]: unknown;
}
interface HealthBody {
  status: 'ok' | 'error';
  info: Record<string, Check>;
  error: Record<string, Check>;
  details: Record<string, Check>;
}

async function getJson<T = HealthBody>(
  url: string,
  token?: string,
): Promise<{ status: number; body: T }> {
  // Bounded: a probe that hung would fail here instead of holding the suite.
  const res = await fetch(url, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function scrape(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(15_000) });
  return res.text();
}

/** The value of one unlabelled series, or undefined when the family has no sample. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await delay(100);
  }
  return true;
}

async function gatewayWithToken(config: DeepPartial<GatewayConfig>): Promise<HttpGatewayHandle> {
  const saved = process.env[ADMIN_TOKEN_ENV];
  process.env[ADMIN_TOKEN_ENV] = TOKEN;
  try {
    return await startHttpGateway({ config });
  } finally {
    if (saved === undefined) delete process.env[ADMIN_TOKEN_ENV];
    else process.env[ADMIN_TOKEN_ENV] = saved;
  }
}

function expectListed(body: HealthBody, keys: readonly string[]): void {
  expect(Object.keys(body.details).sort()).toEqual([...keys].sort());
  for (const key of keys) {
    expect({ key, latencyMs: body.details[key].latencyMs }).toEqual({
      key,
      latencyMs: expect.any(Number),
    });
  }
}

describe('health on the embedded default (memory state, SQLite ledger and tasks)', () => {
  let dir: string;
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-health-'));
    writeEchoRegistryFile(dir, { allowed_tools: ['echo'] });
    gateway = await gatewayWithToken({ upstreams: { registry_dir: dir } });
    await gateway.app.get(UpstreamToolsPublisher).settled();
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers liveness without checking any dependency', async () => {
    const { status, body } = await getJson(`${gateway.baseUrl}/health`);
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
  });

  it('lists every dependency in /health/ready, each up with its latency', async () => {
    const { status, body } = await getJson(`${gateway.baseUrl}/health/ready`);
    expect(status).toBe(200);
    expectListed(body, DEPENDENCIES);
    expect(body.details.ledger).toMatchObject({ status: 'up', driver: 'sqlite' });
    expect(body.details.task_store).toMatchObject({ status: 'up', driver: 'sqlite' });
    expect(body.details.task_queue).toMatchObject({ status: 'up', driver: 'local' });
    expect(body.details.upstreams).toMatchObject({ status: 'up', servers: 1, serving: 1 });
    // The public probe names no upstream that is serving, and no writer internals.
    expect(body.details.upstreams).not.toHaveProperty('server_list');
    expect(body.details.ledger).not.toHaveProperty('backlogRows');
  });

  it('answers GET /admin/health only with the admin token', async () => {
    expect((await getJson(`${gateway.baseUrl}/admin/health`)).status).toBe(401);
    expect((await getJson(`${gateway.baseUrl}/admin/health`, 'wrong')).status).toBe(401);
  });

  it('gives the admin the same verdict with the writer and every upstream in detail', async () => {
    const { status, body } = await getJson(`${gateway.baseUrl}/admin/health`, TOKEN);
    expect(status).toBe(200);
    expectListed(body, DEPENDENCIES);
    expect(body.details.ledger).toMatchObject({
      status: 'up',
      backlogRows: 0,
      commits: { batches: expect.any(Number), rows: expect.any(Number), failedRows: 0 },
    });
    expect(body.details.upstreams.server_list).toEqual([
      expect.objectContaining({
        server_id: 'echo',
        required: false,
        state: 'connected',
        listed: true,
        restarts: 0,
        since: expect.any(String),
      }),
    ]);
    expect(body.details.upstreams).not.toHaveProperty('server_list_truncated');
  });

  it('documents GET /admin/health in the admin OpenAPI document, and only the admin routes', async () => {
    const { body } = await getJson<{ paths: Record<string, Json> }>(
      `${gateway.baseUrl}/admin/openapi.json`,
      TOKEN,
    );
    expect(body.paths['/admin/health']).toHaveProperty('get');
    expect(Object.keys(body.paths).filter((path) => !path.startsWith('/admin/'))).toEqual([]);
  });

  // Last: the task store stays closed.
  it('fails readiness, naming the task store, once its database is closed', async () => {
    gateway.app.get<TaskStore, SqliteTaskStore>(TaskStore).close();
    const { status, body } = await getJson(`${gateway.baseUrl}/health/ready`);
    expect(status).toBe(503);
    expect(body.status).toBe('error');
    expect(body.error.task_store).toEqual({
      status: 'down',
      driver: 'sqlite',
      latencyMs: expect.any(Number),
      reason: expect.stringMatching(/not open/),
    });
    expect(Object.keys(body.error)).toEqual(['task_store']);
  });
});

describe(`GET /admin/health with more than ${ADMIN_HEALTH_MAX_LISTED_SERVERS} upstreams`, () => {
  const SERVERS = ADMIN_HEALTH_MAX_LISTED_SERVERS + 5;
  let dir: string;
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-health-many-'));
    // Nothing listens on the port: each connect is refused at once.
    const closed = await freePort();
    for (let i = 0; i < SERVERS; i++) {
      writeFileSync(
        join(dir, `s${i}.json`),
        JSON.stringify({
          version: 1,
          server_id: `s${i}`,
          transport: 'streamable_http',
          http: { url: `http://127.0.0.1:${closed}/mcp` },
        }),
      );
    }
    gateway = await gatewayWithToken({ upstreams: { registry_dir: dir } });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`lists ${ADMIN_HEALTH_MAX_LISTED_SERVERS} servers and says how many more there are`, async () => {
    const { status, body } = await getJson(`${gateway.baseUrl}/admin/health`, TOKEN);
    // None is `required`: broken upstreams never fail readiness.
    expect(status).toBe(200);
    const upstreams = body.details.upstreams;
    expect(upstreams.servers).toBe(SERVERS);
    expect(upstreams.server_list).toHaveLength(ADMIN_HEALTH_MAX_LISTED_SERVERS);
    expect(upstreams.server_list_truncated).toBe(
      `5 more not listed (at most ${ADMIN_HEALTH_MAX_LISTED_SERVERS})`,
    );
  });
});

const redisAvailable = servicesAvailable('health in redis mode', [
  programCheck('redis-server', 'redis-server'),
]);

(redisAvailable ? describe : describe.skip)('health in redis mode (a private redis-server)', () => {
  let redis: RedisServer;
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    redis = await RedisServer.start(await freePort());
    gateway = await gatewayWithToken({
      state: { driver: 'redis', redis_url: redis.url, key_prefix: 'owlclaw-health:' },
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await redis?.kill();
  });

  it('lists Redis and the Redis task store and BullMQ queue; mcp_redis_up follows Redis down and back', async () => {
    const ready = await getJson(`${gateway.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expectListed(ready.body, [...DEPENDENCIES, 'redis']);
    expect(ready.body.details.task_store).toMatchObject({ status: 'up', driver: 'redis' });
    expect(ready.body.details.task_queue).toMatchObject({ status: 'up', driver: 'bullmq' });
    expect(sample(await scrape(gateway.baseUrl), 'mcp_redis_up')).toBe(1);

    await redis.kill();
    expect(
      await eventually(
        async () => (await getJson(`${gateway.baseUrl}/health/ready`)).status === 503,
      ),
    ).toBe(true);
    const down = await getJson(`${gateway.baseUrl}/admin/health`, TOKEN);
    expect(down.status).toBe(503);
    expect(Object.keys(down.body.error).sort()).toEqual(['redis', 'task_queue', 'task_store']);
    for (const key of ['redis', 'task_queue', 'task_store']) {
      expect({ key, ...down.body.error[key] }).toMatchObject({
        key,
        status: 'down',
        latencyMs: expect.any(Number),
        reason: expect.any(String),
      });
    }
    expect(sample(await scrape(gateway.baseUrl), 'mcp_redis_up')).toBe(0);

    redis = await RedisServer.start(redis.port);
    expect(
      await eventually(
        async () => (await getJson(`${gateway.baseUrl}/health/ready`)).status === 200,
      ),
    ).toBe(true);
    expect(sample(await scrape(gateway.baseUrl), 'mcp_redis_up')).toBe(1);
  }, 60_000);
});

describe('a Redis that accepts connections and never answers (attack)', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let gateway: HttpGatewayChild;

  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      // Reads everything, answers nothing.
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    // A process of its own: whatever the hung connection does to a stop, SIGKILL ends it.
    gateway = await HttpGatewayChild.start({
      ...testGatewayEnv(),
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_STATE_DRIVER: 'redis',
      MCP_SERVER_STATE_REDIS_URL: `redis://127.0.0.1:${port}`,
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it(`answers /health/ready with 503 within its checks' ${HEALTH_CHECK_TIMEOUT_MS} ms timeouts, naming what hangs`, async () => {
    const { status, body } = await getJson(`${gateway.baseUrl}/health/ready`);
    expect(status).toBe(503);
    expect(body.error.redis).toMatchObject({ status: 'down', reason: expect.any(String) });
    // BullMQ waits for its connection forever: only the check's own deadline ends the wait.
    expect(body.error.task_queue).toMatchObject({
      status: 'down',
      reason: `no answer within ${HEALTH_CHECK_TIMEOUT_MS} ms`,
    });
    // The dependencies that answer are still listed as up.
    expect(body.info.ledger).toMatchObject({ status: 'up' });
    expect(body.info.gateway).toMatchObject({ status: 'up' });
  });

  it('still answers a scrape, with mcp_redis_up 0', async () => {
    expect(sample(await scrape(gateway.baseUrl), 'mcp_redis_up')).toBe(0);
  });
});
