/**
 * Upstream secrets leak: the open /health/ready printed an upstream's whole
 * URL, user, password and query included, in its last_error; the admin API
 * and the logs quoted an auth_ref secret that was no valid header value, and
 * `auth_ref: file:/proc/self/environ` put the gateway's environment there.
 * Now failures are scrubbed of their record's secrets before they are kept
 * or logged, header values are checked by the gateway without quoting them,
 * and file secrets are read only as regular files inside
 * upstreams.secret_dirs, up to upstreams.secret_max_bytes. A real gateway
 * process; every answer and its whole stderr are searched for the secrets.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpGatewayChild } from '../support/http-child';
import { testGatewayEnv } from '../support/test-defaults';

const ADMIN_TOKEN = `admin-${randomUUID()}`;
const URL_PASSWORD = 'pa55-w0rd-in-the-url';
const QUERY_SECRET = 'k3y-in-the-query-string';
const HEADER_SECRET = ['header-secret-first-line', 'header-secret-second-line'];
const OUTSIDE_SECRET = 'secret-behind-a-link-outside';
const BIG_SECRET = 'secret-in-a-file-over-the-cap';
/** Set in the gateway's environment: /proc/self/environ would hold it. */
const ENV_CANARY = `env-canary-${randomUUID()}`;
const SECRETS = [URL_PASSWORD, QUERY_SECRET, ...HEADER_SECRET, OUTSIDE_SECRET, BIG_SECRET];

// Admin and health answers are read loosely: the assertions say what must be there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

async function getJson(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string; body: Json }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Json };
}

function expectNoSecret(text: string): void {
  for (const secret of [...SECRETS, ENV_CANARY, 'alice:']) expect(text).not.toContain(secret);
}

describe('upstream secrets stay out of health, the admin API and the logs', () => {
  let dir: string;
  let outside: string;
  let gateway: HttpGatewayChild;
  const admin = (path: string, init: RequestInit = {}) =>
    getJson(`${gateway.baseUrl}/admin${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-sec-secrets-'));
    outside = mkdtempSync(join(tmpdir(), 'owlclaw-sec-outside-'));
    const registry = join(dir, 'mcp.d');
    mkdirSync(registry);
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'two-lines.token'), HEADER_SECRET.join('\n'));
    writeFileSync(join(dir, 'secrets', 'big.token'), BIG_SECRET.repeat(100));
    writeFileSync(join(outside, 'token'), OUTSIDE_SECRET);
    symlinkSync(join(outside, 'token'), join(dir, 'secrets', 'link.token'));
    const write = (serverId: string, http: Json) =>
      writeFileSync(
        join(registry, `${serverId}.json`),
        JSON.stringify({
          version: 1,
          server_id: serverId,
          transport: 'streamable_http',
          http,
          warm: true,
        }),
      );
    write('creds', {
      url: `http://alice:${URL_PASSWORD}@127.0.0.1:9/mcp?api_key=${QUERY_SECRET}`,
    });
    write('badheader', {
      url: 'http://127.0.0.1:9/mcp',
      auth_ref: 'file:../secrets/two-lines.token',
    });
    write('environ', { url: 'http://127.0.0.1:9/mcp', auth_ref: 'file:/proc/self/environ' });
    write('big', { url: 'http://127.0.0.1:9/mcp', auth_ref: 'file:../secrets/big.token' });
    write('link', { url: 'http://127.0.0.1:9/mcp', auth_ref: 'file:../secrets/link.token' });
    gateway = await HttpGatewayChild.start({
      ...testGatewayEnv(),
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_ADMIN_TOKEN: ADMIN_TOKEN,
      MCP_SERVER_LOGGING_LEVEL: 'debug',
      MCP_SERVER_UPSTREAMS_REGISTRY_DIR: registry,
      MCP_SERVER_UPSTREAMS_SECRET_MAX_BYTES: '1024',
      OWLCLAW_TEST_CANARY: ENV_CANARY,
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('/health/ready names the failing upstream by its masked URL, without user, password or query values', async () => {
    let ready = await getJson(`${gateway.baseUrl}/health/ready`);
    for (let tries = 0; tries < 100 && !ready.text.includes('last_error'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await getJson(`${gateway.baseUrl}/health/ready`);
    }
    const servers = ready.body.info?.upstreams ?? ready.body.error?.upstreams;
    const creds = (servers.not_serving as Json[]).find((server) => server.server_id === 'creds');
    expect(creds?.last_error).toContain('http://127.0.0.1:9/mcp?api_key=***');
    expectNoSecret(ready.text);
  });

  it('refuses each bad auth_ref naming its rule, and the admin API quotes none of them', async () => {
    const listing = await admin('/mcp/servers');
    expect(listing.status).toBe(200);
    const problems = Object.fromEntries(
      (listing.body.rejected as Json[]).map((file) => [file.file, file.problems.join('; ')]),
    );
    expect(problems['badheader.json']).toContain(
      'http.auth_ref: the secret is not a valid HTTP header value',
    );
    expect(problems['environ.json']).toContain('is outside upstreams.secret_dirs');
    expect(problems['big.json']).toContain('is larger than upstreams.secret_max_bytes: 1024 bytes');
    expect(problems['link.json']).toContain('is outside upstreams.secret_dirs');
    expect(problems['link.json']).toContain('its links lead to');
    const creds = await admin('/mcp/servers/creds');
    expect(creds.body.record.http.url).toBe('http://127.0.0.1:9/mcp?api_key=***');
    const health = await admin('/health');
    const probe = await admin('/mcp/servers/creds/test', { method: 'POST' });
    expect(probe.body).toMatchObject({ ok: false, server_id: 'creds' });
    for (const answer of [listing, creds, health, probe]) expectNoSecret(answer.text);
  });

  it('the same through an admin write: /proc/self/environ is refused with nothing of the environment', async () => {
    const written = await admin('/mcp/servers', {
      method: 'POST',
      body: JSON.stringify({
        version: 1,
        server_id: 'environ2',
        transport: 'streamable_http',
        http: { url: 'http://127.0.0.1:9/mcp', auth_ref: 'file:/proc/self/environ' },
      }),
    });
    expect(written.status).toBe(400);
    expect(written.text).toContain('upstreams.secret_dirs');
    expectNoSecret(written.text);
  });

  it('writes none of the secrets, nor the environment, anywhere in its stderr', () => {
    expect(gateway.stderr).toContain('creds');
    expectNoSecret(gateway.stderr);
  });
});
