import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { allOrNothing, writeConfig } from '../support/governed-clients';
import { HttpGatewayChild } from '../support/http-child';
import { freePort, RedisServer } from '../support/redis-server';
import { connectSdkClient } from '../support/sdk-clients';
import { programCheck, servicesAvailable, tcpCheck } from '../support/service-availability';
import { REPO_ROOT } from '../support/stdio-process';
import { allToolNames } from '../support/sdk-list-pages';
import { TYPESCRIPT_LOADER } from '../support/typescript-loader';

/**
 * The registry in real gateway processes: SIGHUP scans again (and does not
 * stop the gateway); in scale-out mode (PostgreSQL + Redis) a server added
 * through one replica's admin API is served by the other, and a refresh that
 * cannot read the shared store keeps the old snapshot and says degraded.
 */

const POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN_TOKEN = `admin-${randomUUID()}`;
const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');

// Admin answers are read loosely: the assertions say what must be there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

async function admin(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${baseUrl}/admin/mcp/servers${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Json) };
}

async function eventually<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    await delay(100);
  }
}

function echoServer(serverId: string): Json {
  return {
    version: 1,
    server_id: serverId,
    transport: 'stdio',
    stdio: {
      command: process.execPath,
      args: ['-r', TYPESCRIPT_LOADER, ECHO_UPSTREAM],
      cwd: REPO_ROOT,
    },
    allowed_tools: ['echo'],
  };
}

describe('SIGHUP on a running gateway', () => {
  let dir: string;
  let gateway: HttpGatewayChild | undefined;

  afterAll(async () => {
    await gateway?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scans the registry again and keeps serving', async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-sighup-'));
    const registry = join(dir, 'mcp.d');
    const secrets = join(dir, 'secrets');
    mkdirSync(registry);
    mkdirSync(secrets);
    // The secret lives outside the watched directory: only SIGHUP can notice its change.
    writeFileSync(join(secrets, 'token'), 'first');
    writeFileSync(
      join(registry, 'remote.json'),
      JSON.stringify({
        version: 1,
        server_id: 'remote',
        transport: 'streamable_http',
        http: { url: 'http://127.0.0.1:9/mcp', auth_ref: `file:${join(secrets, 'token')}` },
      }),
    );
    const configPath = writeConfig(dir, 'gateway.yaml', {
      capabilities: { demo_pack: false },
      http: { host: '127.0.0.1', port: 0 },
      ledger: { sqlite_path: join(dir, 'ledger.db') },
      upstreams: { registry_dir: registry },
    });
    gateway = await HttpGatewayChild.start({
      MCP_SERVER_CONFIG: configPath,
      MCP_SERVER_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    const before = (await admin(gateway.baseUrl, '')).body.registry.revision as string;

    writeFileSync(join(secrets, 'token'), 'second');
    gateway.child.kill('SIGHUP');

    const after = await eventually(
      () => admin(gateway!.baseUrl, ''),
      (reply) => reply.body.registry?.revision !== before,
    );
    expect(after.status).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
    expect(JSON.stringify(after.body)).not.toContain('second');
  }, 120_000);
});

// Probed synchronously, before any test is defined (as scale-out.e2e-spec.ts does).
const available = servicesAvailable('upstream registry replicas e2e', [
  tcpCheck('PostgreSQL', '127.0.0.1', 5432),
  programCheck('redis-server', 'redis-server'),
]);

(available ? describe : describe.skip)('scale-out: the registry shared by two replicas', () => {
  const run = randomUUID().slice(0, 8);
  const schema = `owlclaw_registry_${run}`;
  let dir: string;
  let pg: PgClient;
  let redis: RedisServer;
  let replicas: HttpGatewayChild[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-registry-scale-'));
    mkdirSync(join(dir, 'mcp.d'));
    pg = new PgClient({ connectionString: POSTGRES });
    await pg.connect();
    await pg.query(`create schema ${schema}`);
    redis = await RedisServer.start(await freePort());
    const configPath = writeConfig(dir, 'replica.yaml', {
      capabilities: { demo_pack: false },
      http: { host: '127.0.0.1', port: 0 },
      state: { driver: 'redis', redis_url: redis.url, key_prefix: `owlclaw-test:${run}:` },
      ledger: {
        driver: 'postgres',
        postgres_url: `${POSTGRES}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      },
      upstreams: { registry_dir: join(dir, 'mcp.d') },
    });
    const env = { MCP_SERVER_CONFIG: configPath, MCP_SERVER_ADMIN_TOKEN: ADMIN_TOKEN };
    replicas = await allOrNothing([HttpGatewayChild.start(env), HttpGatewayChild.start(env)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis?.kill();
    if (pg) {
      await pg.query(`drop schema if exists ${schema} cascade`);
      await pg.end();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('serves a server added through one replica from the other', async () => {
    const [a, b] = replicas;
    const created = await admin(a.baseUrl, '', { method: 'POST', body: echoServer('shared') });
    expect(created.status).toBe(201);
    expect(created.body.record.file).toBe('postgres:shared.json');

    // A generous wait for B (the issue asks for 2 s); not a timing assertion.
    const seen = await eventually(
      () => admin(b.baseUrl, ''),
      (reply) => reply.body.registry?.revision === created.body.revision,
      10_000,
    );
    expect(seen.body.registry.store).toBe('postgres');
    const sdk = await connectSdkClient({ kind: 'streamable-http', baseUrl: b.baseUrl });
    try {
      await eventually(
        () => allToolNames(sdk.client),
        (names) => names.includes('shared__echo'),
      );
      const reply = await sdk.client.callTool({
        name: 'shared__echo',
        arguments: { text: 'via b' },
      });
      expect(reply.content).toEqual([{ type: 'text', text: 'via b' }]);
    } finally {
      await sdk.dispose();
    }

    const removed = await admin(b.baseUrl, '/shared', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    await eventually(
      () => admin(a.baseUrl, '/shared'),
      (reply) => reply.status === 404,
      10_000,
    );
  }, 120_000);

  it('keeps the old snapshot and reports degraded when the shared store cannot be read', async () => {
    const [a, b] = replicas;
    const created = await admin(a.baseUrl, '', { method: 'POST', body: echoServer('kept') });
    expect(created.status).toBe(201);
    await eventually(
      () => admin(b.baseUrl, ''),
      (reply) => reply.body.registry?.revision === created.body.revision,
      10_000,
    );
    await pg.query(`alter table ${schema}.upstream_servers rename to upstream_servers_away`);
    try {
      // The periodic poll finds the store unreadable (a generous wait over its jittered period).
      const degraded = await eventually(
        () => admin(b.baseUrl, ''),
        (reply) => reply.body.registry?.degraded === true,
        20_000,
      );
      expect(degraded.body.registry.revision).toBe(created.body.revision);
      expect(degraded.body.servers.map((s: { server_id: string }) => s.server_id)).toContain(
        'kept',
      );
    } finally {
      await pg.query(`alter table ${schema}.upstream_servers_away rename to upstream_servers`);
    }
    await eventually(
      () => admin(b.baseUrl, ''),
      (reply) => reply.body.registry?.degraded === false,
      20_000,
    );
  }, 120_000);
});
