import { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from 'pg';
import { createHttpGateway, listenHttpGateway } from '../../src/bootstrap/http.bootstrap';
import { loadGatewayConfig } from '../../src/config/config.loader';
import { FixtureModule } from '../fixtures/fixture.module';
import { HttpGatewayChild } from '../support/http-child';
import { allOrNothing, HttpClient, Json, Reply, writeConfig } from '../support/governed-clients';
import { freePort, RedisServer } from '../support/redis-server';
import { programCheck, servicesAvailable, tcpCheck } from '../support/service-availability';

/**
 * Two replicas behind one (imaginary) load balancer: state.driver redis (a
 * private redis-server this suite starts, stops and restarts) and
 * ledger.driver postgres (a schema of its own, dropped afterwards). One
 * limit across both, the same stats on both, the admin API, rules changed at
 * run time on every replica, and failing closed while Redis is away.
 */

const POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';
const PER_MINUTE = 60;
const CALLS = 200;
const ADMIN_TOKEN = `admin-${randomUUID()}`;

// Probed synchronously, before any test is defined: without PostgreSQL or a redis-server
// binary the suite is skipped, loudly (or fails, with MCP_TEST_REQUIRE_SERVICES=1).
const available = servicesAvailable('scale-out e2e', [
  tcpCheck('PostgreSQL', '127.0.0.1', 5432),
  programCheck('redis-server', 'redis-server'),
]);

function call(client: HttpClient, name: string, headers: Record<string, string> = {}) {
  return client.rpc('tools/call', { name, arguments: {} }, headers);
}

function reasonOf(reply: Reply): string | undefined {
  const error = reply.body.error as { data?: { reason?: string } } | undefined;
  return error?.data?.reason;
}

async function admin(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string | null } = {},
): Promise<{ status: number; body: Json }> {
  const token = init.token === undefined ? ADMIN_TOKEN : init.token;
  const res = await fetch(`${baseUrl}/admin/governance/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'Content-Type': 'application/json',
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Json) };
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(100);
  }
}

(available ? describe : describe.skip)('scale-out: two replicas, Redis and PostgreSQL', () => {
  const run = randomUUID().slice(0, 8);
  const schema = `owlclaw_scale_${run}`;
  let dir: string;
  let configPath: string;
  let pg: Client;
  let redis: RedisServer;
  let replicas: HttpGatewayChild[] = [];
  let a: HttpGatewayChild;
  let b: HttpGatewayChild;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-scale-'));
    pg = new Client({ connectionString: POSTGRES });
    await pg.connect();
    await pg.query(`create schema ${schema}`);
    redis = await RedisServer.start(await freePort());
    configPath = writeConfig(dir, 'replica.yaml', {
      capabilities: { demo_pack: false },
      logging: { level: 'info' },
      http: { host: '127.0.0.1', port: 0 },
      state: { driver: 'redis', redis_url: redis.url, key_prefix: `owlclaw-test:${run}:` },
      ledger: {
        driver: 'postgres',
        // pg passes `options` to the server: every replica's ledger lives in this run's schema.
        postgres_url: `${POSTGRES}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      },
      governance: { default_quota: { max_calls_per_minute: PER_MINUTE } },
    });
    const env = { MCP_SERVER_CONFIG: configPath, MCP_SERVER_ADMIN_TOKEN: ADMIN_TOKEN };
    replicas = await allOrNothing([HttpGatewayChild.start(env), HttpGatewayChild.start(env)]);
    [a, b] = replicas;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await redis?.kill();
    if (pg) {
      await pg.query(`drop schema if exists ${schema} cascade`);
      await pg.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(`lets exactly ${PER_MINUTE} of ${CALLS} concurrent calls through across both replicas`, async () => {
    const clients = await Promise.all(
      [a, b, a, b].map((r) => HttpClient.open(r.baseUrl, { id: 'scale-client' })),
    );
    // Both replicas warmed up by another client (its own windows), so that a cold start on a
    // loaded machine does not leave one of them out of the burst; their handlers' runs are counted from here.
    const warmUp = await Promise.all(
      [a, b].map((r) => HttpClient.open(r.baseUrl, { id: 'scale-warm-up' })),
    );
    await Promise.all(warmUp.map((client) => call(client, 'gov_free')));
    const before = await Promise.all([clients[0].counts(), clients[1].counts()]);
    const replies = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => call(clients[i % clients.length], 'gov_free')),
    );
    const succeeded = replies.filter((r) => 'result' in r.body);
    const limited = replies.filter((r) => reasonOf(r) === 'rate_limited');
    expect(succeeded).toHaveLength(PER_MINUTE);
    expect(limited).toHaveLength(CALLS - PER_MINUTE);
    // Each replica's handler ran exactly as often as that replica allowed calls. How the 60 fall
    // between the two is the scheduler's business (on a loaded machine one replica may win them
    // all); that they are 60 and not up to 120 is what proves the window is shared.
    const after = await Promise.all([clients[0].counts(), clients[1].counts()]);
    const runs = after.map((counts, i) => counts.gov_free - before[i].gov_free);
    const allowedBy = [0, 1].map(
      (replica) => replies.filter((r, i) => i % 2 === replica && 'result' in r.body).length,
    );
    expect(runs).toEqual(allowedBy);
  }, 60_000);

  it('reports the same usage on either replica (from the shared ledger)', async () => {
    const [fromA, fromB] = await Promise.all([
      admin(a.baseUrl, 'stats'),
      admin(b.baseUrl, 'stats'),
    ]);
    expect(fromA.status).toBe(200);
    expect(fromB.status).toBe(200);
    // calls_this_minute is left out: a minute boundary may fall between the two reads.
    const withoutMinute = (entry: Json): Json => {
      const copy = { ...entry };
      delete copy.calls_this_minute;
      return copy;
    };
    const stable = (body: Json) => ({
      totals: withoutMinute(body.totals as Json),
      clients: (body.clients as Json[]).map(withoutMinute),
    });
    expect(stable(fromA.body)).toEqual(stable(fromB.body));
    const client = (fromA.body.clients as Json[]).find((c) => c.client_id === 'scale-client');
    expect(client).toMatchObject({
      calls_this_month: CALLS,
      denials_by_reason: { rate_limited: CALLS - PER_MINUTE },
      top_tools: [{ tool: 'gov_free', calls: CALLS }],
    });
    const one = await admin(b.baseUrl, 'clients/scale-client');
    expect(one.body).toMatchObject({
      client_id: 'scale-client',
      calls_this_month: CALLS,
      quota: { max_calls_per_minute: PER_MINUTE },
    });
  });

  it('guards the admin API: 404 without MCP_SERVER_ADMIN_TOKEN, 401 with a wrong token', async () => {
    expect((await admin(a.baseUrl, 'stats', { token: 'wrong' })).status).toBe(401);
    expect((await admin(a.baseUrl, 'rules', { token: null })).status).toBe(401);
    expect(
      (await admin(a.baseUrl, 'rules', { method: 'PUT', body: {}, token: 'wrong' })).status,
    ).toBe(401);
    // This process has no MCP_SERVER_ADMIN_TOKEN: a gateway here has no admin API at all.
    expect(process.env.MCP_SERVER_ADMIN_TOKEN).toBeUndefined();
    const config = loadGatewayConfig({
      configPath,
      env: {},
      overrides: { transport: 'http', http: { port: 0 } },
    });
    const app: NestExpressApplication = await createHttpGateway({
      config,
      logger: false,
      extraModules: [FixtureModule],
    });
    try {
      const address = await listenHttpGateway(app, config);
      const url = `http://127.0.0.1:${address.port}`;
      expect((await admin(url, 'stats')).status).toBe(404);
      expect((await admin(url, 'rules', { method: 'PUT', body: {} })).status).toBe(404);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('validates PUT rules (400 naming the key) and applies valid ones on every replica at once', async () => {
    const current = (await admin(a.baseUrl, 'rules')).body;
    const invalid = {
      ...current,
      default_quota: { ...(current.default_quota as Json), max_calls_per_minute: 0 },
    };
    const refused = await admin(a.baseUrl, 'rules', { method: 'PUT', body: invalid });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(
      'mcp_server.governance.default_quota.max_calls_per_minute',
    );
    expect((await admin(a.baseUrl, 'rules')).body).toEqual(current);

    const onA = await HttpClient.open(a.baseUrl, { id: 'rules-client' });
    const onB = await HttpClient.open(b.baseUrl, { id: 'rules-client' });
    expect('result' in (await call(onA, 'gov_free')).body).toBe(true);
    const changed = {
      ...current,
      clients: { ...(current.clients as Json), 'rules-client': { deny: ['gov_free'] } },
    };
    const accepted = await admin(a.baseUrl, 'rules', { method: 'PUT', body: changed });
    expect(accepted).toMatchObject({ status: 200, body: { changed: true, propagated: true } });
    // The next call on the same replica, without a restart...
    expect((await call(onA, 'gov_free')).body.error).toMatchObject({ code: -32001 });
    // ...and on the other replica as soon as the change has crossed Redis.
    await eventually(async () => {
      const error = (await call(onB, 'gov_free')).body.error as Json | undefined;
      return error?.code === -32001;
    });
    expect((await admin(b.baseUrl, 'rules')).body).toEqual(changed);
  });

  it('fails closed while Redis is down, says so in readiness, and recovers when it returns', async () => {
    const client = await HttpClient.open(a.baseUrl, { id: 'redis-client' });
    expect('result' in (await call(client, 'gov_free')).body).toBe(true);

    await redis.kill();
    const refused = await call(client, 'gov_free');
    expect(refused.body.error).toMatchObject({
      code: -32003,
      data: { reason: 'governance_unavailable', retryable: true, retry_after: 1 },
    });
    const ready = await fetch(`${a.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ error: { redis: { status: 'down' } } });

    redis = await RedisServer.start(redis.port);
    await eventually(async () => 'result' in (await call(client, 'gov_free')).body);
    await eventually(async () => (await fetch(`${a.baseUrl}/health/ready`)).status === 200);
    await eventually(async () => (await fetch(`${b.baseUrl}/health/ready`)).status === 200);
  }, 60_000);
});
