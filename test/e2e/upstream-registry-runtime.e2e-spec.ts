import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isRunning } from '../../src/upstreams/process-exit.wait';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { UpstreamPool } from '../../src/upstreams/upstream.pool';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { REPO_ROOT } from '../support/stdio-process';
import { TYPESCRIPT_LOADER } from '../support/typescript-loader';

/**
 * The registry changed while the gateway runs, through its directory and
 * through the admin API: tools appear and go for a connected SDK client, a
 * removed server's child is stopped, an unchanged one keeps its child, and
 * bad input changes nothing.
 */

const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
const ADMIN_TOKEN = 'upstream-admin-e2e-token-0123456789abcdef';
// Admin answers are read loosely: the assertions say what must be there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const SECRET = 'upstream-admin-e2e-secret-value';

let dir: string;
let gateway: HttpGatewayHandle;
let sdk: SdkClientHandle;
let client: Client;
const savedToken = process.env.MCP_SERVER_ADMIN_TOKEN;

function echoFile(serverId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    server_id: serverId,
    transport: 'stdio',
    stdio: {
      command: process.execPath,
      args: ['-r', TYPESCRIPT_LOADER, ECHO_UPSTREAM],
      cwd: REPO_ROOT,
      env: { SECRET_TOKEN: SECRET },
    },
    allowed_tools: ['echo'],
    ...extra,
  };
}

async function admin(
  path: string,
  init: { method?: string; body?: string; type?: string } = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${gateway.baseUrl}/admin/mcp/servers${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      'Content-Type': init.type ?? 'application/json',
    },
    body: init.body,
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Json) };
}

async function toolNames(): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

async function eventually<T>(read: () => Promise<T> | T, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met; last value ${JSON.stringify(value)}`);
    await delay(100);
  }
}

function pidOf(serverId: string): number | undefined {
  return gateway.app.get(UpstreamPool).connection(serverId)?.pid;
}

beforeAll(async () => {
  process.env.MCP_SERVER_ADMIN_TOKEN = ADMIN_TOKEN;
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-registry-runtime-'));
  writeFileSync(join(dir, 'alpha.json'), JSON.stringify(echoFile('alpha')));
  gateway = await startHttpGateway({ config: { upstreams: { registry_dir: dir } } });
  await gateway.app.get(UpstreamToolsPublisher).settled();
  sdk = await connectSdkClient({ kind: 'streamable-http', baseUrl: gateway.baseUrl });
  client = sdk.client;
}, 120_000);

afterAll(async () => {
  await sdk?.dispose();
  await gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (savedToken === undefined) delete process.env.MCP_SERVER_ADMIN_TOKEN;
  else process.env.MCP_SERVER_ADMIN_TOKEN = savedToken;
});

describe('registry changes at run time', () => {
  it('picks up a file added to and removed from the watched directory; unchanged servers keep their child', async () => {
    expect(await toolNames()).toContain('alpha__echo');
    const alphaPid = pidOf('alpha');
    expect(alphaPid).toBeDefined();
    const before = (await admin('')).body.registry.revision as string;

    writeFileSync(join(dir, 'beta.json'), JSON.stringify(echoFile('beta')));
    await eventually(toolNames, (names) => names.includes('beta__echo'));
    const betaPid = pidOf('beta');
    expect(betaPid).toBeDefined();
    const echoed = await client.callTool({ name: 'beta__echo', arguments: { text: 'hi' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect((await admin('')).body.registry.revision).not.toBe(before);
    // alpha's record did not change: same connection, same child.
    expect(pidOf('alpha')).toBe(alphaPid);

    unlinkSync(join(dir, 'beta.json'));
    await eventually(toolNames, (names) => !names.includes('beta__echo'));
    await eventually(
      () => isRunning(betaPid!),
      (running) => !running,
    );
    expect(pidOf('alpha')).toBe(alphaPid);
  }, 60_000);

  it('reconnects a server whose file changed, and exposes what the new record allows', async () => {
    const alphaPid = pidOf('alpha');
    writeFileSync(
      join(dir, 'alpha.json'),
      JSON.stringify(echoFile('alpha', { allowed_tools: ['echo', 'slow'] })),
    );
    await eventually(toolNames, (names) => names.includes('alpha__slow'));
    await eventually(
      () => isRunning(alphaPid!),
      (running) => !running,
    );
  }, 60_000);
});

describe('admin API /admin/mcp/servers', () => {
  it('lists servers with status, tool count and revision, and masks secrets in a record', async () => {
    const list = await admin('');
    expect(list.status).toBe(200);
    const alpha = list.body.servers.find((s: { server_id: string }) => s.server_id === 'alpha');
    expect(alpha).toMatchObject({ status: 'Connected', tool_count: 2, file: 'alpha.json' });
    expect(list.body.registry).toMatchObject({ degraded: false, store: 'directory' });

    const detail = await admin('/alpha');
    expect(detail.status).toBe(200);
    expect(detail.body.record.stdio.env).toEqual({ SECRET_TOKEN: '***' });
    expect(JSON.stringify(detail.body)).not.toContain(SECRET);
    expect(detail.body.tools).toEqual(
      expect.arrayContaining([{ name: 'alpha__echo', upstream_tool: 'echo', shortened: false }]),
    );
    expect((await admin('/nope')).status).toBe(404);
  });

  it('never returns header values, URL tokens or auth_ref secrets resolved from the environment', async () => {
    process.env.UPSTREAM_ADMIN_E2E_KEY = `${SECRET}-header`;
    process.env.UPSTREAM_ADMIN_E2E_BEARER = `${SECRET}-bearer`;
    try {
      const created = await admin('', {
        method: 'POST',
        body: JSON.stringify({
          version: 1,
          server_id: 'remote',
          transport: 'streamable_http',
          http: {
            url: `http://127.0.0.1:9/mcp?token=\${ENV:UPSTREAM_ADMIN_E2E_KEY}`,
            headers: { 'X-Api-Key': '${ENV:UPSTREAM_ADMIN_E2E_KEY}' },
            auth_ref: 'env:UPSTREAM_ADMIN_E2E_BEARER',
          },
        }),
      });
      expect(created.status).toBe(201);
      const detail = await admin('/remote');
      expect(detail.body.record.http).toMatchObject({
        headers: { 'X-Api-Key': '***' },
        auth_ref: 'env:UPSTREAM_ADMIN_E2E_BEARER',
        auth_secret: '***',
      });
      for (const reply of [created, detail, await admin('')]) {
        expect(JSON.stringify(reply.body)).not.toContain(SECRET);
      }
      expect((await admin('/remote', { method: 'DELETE' })).status).toBe(200);
    } finally {
      delete process.env.UPSTREAM_ADMIN_E2E_KEY;
      delete process.env.UPSTREAM_ADMIN_E2E_BEARER;
    }
  });

  it('is described in the admin OpenAPI document and refuses a caller without the token', async () => {
    const res = await fetch(`${gateway.baseUrl}/admin/openapi.json`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const paths = Object.keys(((await res.json()) as { paths: Json }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/admin/mcp/servers',
        '/admin/mcp/servers/{id}',
        '/admin/mcp/servers/import',
        '/admin/mcp/servers/{id}/test',
      ]),
    );
    const anonymous = await fetch(`${gateway.baseUrl}/admin/mcp/servers`, {
      method: 'POST',
      body: JSON.stringify(echoFile('intruder')),
    });
    expect(anonymous.status).toBe(401);
    expect(existsSync(join(dir, 'intruder.json'))).toBe(false);
  });

  it('refuses invalid input with a 400 naming the field, and changes nothing', async () => {
    const before = await admin('');
    const files = readdirSync(dir).sort();
    const badBudget = await admin('', {
      method: 'POST',
      body: JSON.stringify(echoFile('gamma', { budgets: { max_concurrency: 0 } })),
    });
    expect(badBudget.status).toBe(400);
    expect(badBudget.body.field).toBe('budgets.max_concurrency');
    const unknownKey = await admin('', {
      method: 'POST',
      body: JSON.stringify(echoFile('gamma', { colour: 'blue' })),
    });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.field).toBe('colour');
    const badId = await admin('/alpha', { method: 'PUT', body: JSON.stringify(echoFile('other')) });
    expect(badId.status).toBe(400);
    expect(badId.body.field).toBe('server_id');
    const taken = await admin('', {
      method: 'POST',
      body: JSON.stringify(echoFile('gamma', { tool_namespace: 'alpha' })),
    });
    expect(taken.status).toBe(400);
    expect(taken.body.field).toBe('tool_namespace');
    const huge = await admin('', { method: 'POST', body: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    const exists = await admin('', { method: 'POST', body: JSON.stringify(echoFile('alpha')) });
    expect(exists.status).toBe(409);
    // gamma.json declares another server: creating gamma would overwrite it.
    writeFileSync(join(dir, 'gamma.json'), JSON.stringify(echoFile('omega')));
    await eventually(
      () => admin(''),
      (reply) => reply.body.servers.length === 2,
    );
    const clobber = await admin('', { method: 'POST', body: JSON.stringify(echoFile('gamma')) });
    expect(clobber.status).toBe(409);
    expect(clobber.body.message).toContain(
      'gamma.json in the registry directory holds server omega',
    );
    unlinkSync(join(dir, 'gamma.json'));
    await eventually(
      () => admin(''),
      (reply) => reply.body.servers.length === 1,
    );

    expect(readdirSync(dir).sort()).toEqual(files);
    expect((await admin('')).body.registry.revision).toBe(before.body.registry.revision);
  });

  it('creates, replaces, tests and deletes a server, bumping the revision each time', async () => {
    const r0 = (await admin('')).body.registry.revision as string;
    const created = await admin('', { method: 'POST', body: JSON.stringify(echoFile('gamma')) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ server_id: 'gamma', changed: true });
    expect(created.body.revision).not.toBe(r0);
    expect(created.body.record.stdio.env.SECRET_TOKEN).toBe('***');
    expect(existsSync(join(dir, 'gamma.json'))).toBe(true);
    await eventually(toolNames, (names) => names.includes('gamma__echo'));

    const replaced = await admin('/gamma', {
      method: 'PUT',
      body: JSON.stringify(echoFile('gamma', { allowed_tools: ['flood'] })),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.revision).not.toBe(created.body.revision);
    await eventually(
      toolNames,
      (names) => names.includes('gamma__flood') && !names.includes('gamma__echo'),
    );

    const probe = await admin('/gamma/test', { method: 'POST' });
    expect(probe.status).toBe(200);
    expect(probe.body).toMatchObject({ ok: true, server_id: 'gamma', allowed: 1 });
    // Every tool the fixture lists is counted; only `flood` is allowed by the replaced record.
    expect(probe.body.tools).toBe(probe.body.tool_names.length);
    expect(probe.body.tool_names).toEqual(
      expect.arrayContaining([
        { name: 'flood', exposed: true },
        { name: 'echo', exposed: false },
      ]),
    );

    const removed = await admin('/gamma', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body.revision).not.toBe(replaced.body.revision);
    expect(existsSync(join(dir, 'gamma.json'))).toBe(false);
    await eventually(toolNames, (names) => !names.some((name) => name.startsWith('gamma__')));
    expect((await admin('/gamma')).status).toBe(404);
  }, 60_000);

  it('runs at most four tests at once; the rest are told to come back', async () => {
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => admin('/alpha/test', { method: 'POST' })),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(4);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(replies.find((reply) => reply.status === 200)?.body.ok).toBe(true);
  }, 60_000);

  it('reports Down, Degraded and Connected from what happened on the connection', async () => {
    const broken = await admin('', {
      method: 'POST',
      body: JSON.stringify({
        version: 1,
        server_id: 'broken',
        transport: 'stdio',
        stdio: { command: join(dir, 'no-such-program') },
        allowed_tools: ['*'],
      }),
    });
    expect(broken.status).toBe(201);
    const down = await eventually(
      () => admin('/broken'),
      (reply) => reply.body.status === 'Down',
    );
    expect(down.body.last_error).toContain('Upstream broken is unavailable');
    expect(down.body.tool_count).toBe(0);

    const sleepy = await admin('', {
      method: 'POST',
      body: JSON.stringify(
        echoFile('sleepy', {
          allowed_tools: ['echo', 'slow'],
          budgets: { tool_timeout_ms: 200 },
        }),
      ),
    });
    expect(sleepy.status).toBe(201);
    await eventually(toolNames, (names) => names.includes('sleepy__slow'));
    expect((await admin('/sleepy')).body.status).toBe('Connected');
    const timedOut = await client.callTool({ name: 'sleepy__slow', arguments: { ms: 2_000 } }).then(
      () => 'answered',
      () => 'failed',
    );
    expect(timedOut).toBe('failed');
    const degraded = await admin('/sleepy');
    expect(degraded.body.status).toBe('Degraded');
    expect(degraded.body.last_error).toContain('timed out');
    await client.callTool({ name: 'sleepy__echo', arguments: { text: 'ok' } });
    const recovered = await admin('/sleepy');
    expect(recovered.body.status).toBe('Connected');
    // The last failure stays visible, with its time.
    expect(recovered.body.last_error).toContain('timed out');

    expect((await admin('/broken', { method: 'DELETE' })).status).toBe(200);
    expect((await admin('/sleepy', { method: 'DELETE' })).status).toBe(200);
  }, 60_000);

  it('imports a YAML body, by content type or by a format field, as a file would load', async () => {
    const yaml = [
      'version: 1',
      'server_id: delta',
      'transport: stdio',
      'stdio:',
      `  command: ${JSON.stringify(process.execPath)}`,
      `  args: ['-r', ${JSON.stringify(TYPESCRIPT_LOADER)}, ${JSON.stringify(ECHO_UPSTREAM)}]`,
      `  cwd: ${JSON.stringify(REPO_ROOT)}`,
      "allowed_tools: ['echo']",
    ].join('\n');
    const imported = await admin('/import', {
      method: 'POST',
      body: yaml,
      type: 'application/yaml',
    });
    expect(imported.status).toBe(200);
    expect(existsSync(join(dir, 'delta.yaml'))).toBe(true);
    await eventually(toolNames, (names) => names.includes('delta__echo'));

    const again = await admin('/import', {
      method: 'POST',
      body: JSON.stringify({
        format: 'yaml',
        content: yaml.replace("['echo']", "['echo', 'slow']"),
      }),
    });
    expect(again.status).toBe(200);
    expect(again.body.changed).toBe(true);
    await eventually(toolNames, (names) => names.includes('delta__slow'));

    const badFormat = await admin('/import', {
      method: 'POST',
      body: JSON.stringify({ format: 'xml', content: '<x/>' }),
    });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.field).toBe('format');
    const badYaml = await admin('/import', {
      method: 'POST',
      body: 'version: [',
      type: 'application/yaml',
    });
    expect(badYaml.status).toBe(400);
  }, 60_000);

  it('shows the registry degraded while its directory cannot be read, and recovers', async () => {
    const revision = (await admin('')).body.registry.revision as string;
    const moved = `${dir}-moved`;
    // A file where the directory was: the scan fails (not a directory), the old snapshot stays.
    rmSync(moved, { recursive: true, force: true });
    renameSync(dir, moved);
    writeFileSync(dir, 'not a directory');
    const degraded = await eventually(
      () => admin(''),
      (reply) => reply.body.registry.degraded === true,
    );
    expect(degraded.body.registry.revision).toBe(revision);
    expect(degraded.body.registry.degraded_reason).toContain('is not a directory');
    expect(await toolNames()).toContain('alpha__echo');

    unlinkSync(dir);
    renameSync(moved, dir);
    await eventually(
      () => admin(''),
      (reply) => reply.body.registry.degraded === false,
    );
  }, 60_000);
});
