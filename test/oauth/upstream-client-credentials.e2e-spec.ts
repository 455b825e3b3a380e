import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { AuthorizationServer } from '../support/oauth/authorization-server';
import { ProtectedHttpUpstream } from '../support/oauth/protected-http-upstream';
import { freePort } from '../support/redis-server';

/**
 * Upstreams that are OAuth resource servers of their own (#20 item 4). The gateway, itself in
 * `auth.mode: oauth`, reaches a real SDK MCP server behind `requireBearerAuth` with the client
 * credentials of its registry record: the upstream's 401 leads the SDK to the upstream's
 * protected resource metadata, the test authorization server and a token for the upstream's URL.
 * A client's own access token authorizes the call to the gateway and is never forwarded.
 */

const GATEWAY_CLIENT = {
  clientId: 'owlclaw-upstream-client',
  clientSecret: 'upstream-client-secret-0123456789abcdef',
};
const MCP_CLIENT = { clientId: 'mcp-app', clientSecret: 'mcp-app-secret-0123456789abcdef' };
const ADMIN_TOKEN = 'upstream-oauth-e2e-admin-token-0123456789';
// Admin and readiness answers are read loosely: the assertions say what must be there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let authServer: AuthorizationServer;
let upstream: ProtectedHttpUpstream;
let gateway: HttpGatewayHandle;
let client: Client;
let clientToken: string;
let dir: string;
const savedAdminToken = process.env.MCP_SERVER_ADMIN_TOKEN;

/** A registry record for the protected upstream, its client secret read from `secretFile`. */
function writeRecord(
  serverId: string,
  secretFile: string,
  oauth: Record<string, unknown>,
  transport: 'streamable_http' | 'http_sse_legacy' = 'streamable_http',
): void {
  const record = {
    version: 1,
    server_id: serverId,
    transport,
    http: {
      url: transport === 'streamable_http' ? upstream.url : upstream.sseUrl,
      oauth: {
        client_id: GATEWAY_CLIENT.clientId,
        client_secret_ref: `file:../${secretFile}`,
        ...oauth,
      },
    },
    allowed_tools: ['*'],
  };
  writeFileSync(join(dir, 'registry', `${serverId}.json`), JSON.stringify(record));
}

/** A client credentials token from the test authorization server for `resource`. */
async function tokenFor(resource: string): Promise<string> {
  const basic = Buffer.from(`${MCP_CLIENT.clientId}:${MCP_CLIENT.clientSecret}`).toString('base64');
  const response = await fetch(`${authServer.issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp', resource }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function getJson(path: string, headers: Record<string, string> = {}): Promise<Json> {
  return (await (await fetch(`${gateway.baseUrl}${path}`, { headers })).json()) as Json;
}

function notServing(readiness: Json, serverId: string): Json | undefined {
  const servers = (readiness.details?.upstreams?.not_serving ?? []) as Json[];
  return servers.find((server) => server.server_id === serverId);
}

beforeAll(async () => {
  process.env.MCP_SERVER_ADMIN_TOKEN = ADMIN_TOKEN;
  const upstreamPort = await freePort();
  const gatewayPort = await freePort();
  const upstreamOrigin = `http://127.0.0.1:${upstreamPort}`;
  const gatewayResource = `http://127.0.0.1:${gatewayPort}/mcp`;
  authServer = await AuthorizationServer.start({
    resources: {
      [`${upstreamOrigin}/mcp`]: { scope: 'tools' },
      [`${upstreamOrigin}/sse`]: { scope: 'tools' },
      [gatewayResource]: { scope: 'mcp' },
    },
    clients: [
      { ...GATEWAY_CLIENT, scope: 'tools' },
      { ...MCP_CLIENT, scope: 'mcp' },
    ],
  });
  upstream = await ProtectedHttpUpstream.start(upstreamPort, authServer.issuer, authServer.jwksUri);

  dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-oauth-'));
  mkdirSync(join(dir, 'registry'));
  writeFileSync(join(dir, 'right.secret'), `${GATEWAY_CLIENT.clientSecret}\n`);
  writeFileSync(join(dir, 'wrong.secret'), 'not-the-secret-0123456789abcdef\n');
  writeRecord('secured', 'right.secret', { scope: 'tools', issuer: authServer.issuer });
  writeRecord('legacy', 'right.secret', { issuer: authServer.issuer }, 'http_sse_legacy');
  writeRecord('wrongsecret', 'wrong.secret', { issuer: authServer.issuer });
  // Pinned to another authorization server: the secret must not go to the one the upstream names.
  writeRecord('elsewhere', 'right.secret', { issuer: 'http://127.0.0.1:9/' });

  gateway = await startHttpGateway({
    config: {
      http: { port: gatewayPort },
      auth: {
        mode: 'oauth',
        oauth: { resource: gatewayResource, issuers: [authServer.issuer] },
      },
      upstreams: { registry_dir: join(dir, 'registry'), restart_max_failures: 1 },
    },
  });
  await gateway.app.get(UpstreamToolsPublisher).settled();

  clientToken = await tokenFor(gatewayResource);
  client = new Client({ name: 'upstream-oauth-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${clientToken}` } },
    }),
  );
}, 120_000);

afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await upstream?.stop();
  await authServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (savedAdminToken === undefined) delete process.env.MCP_SERVER_ADMIN_TOKEN;
  else process.env.MCP_SERVER_ADMIN_TOKEN = savedAdminToken;
});

describe('an upstream behind its own OAuth authorization server', () => {
  it("lists and calls the upstream's tool with the gateway's own token", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('secured__whoami');
    expect(names.some((name) => name.startsWith('wrongsecret__'))).toBe(false);

    const result = await client.callTool({ name: 'secured__whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: GATEWAY_CLIENT.clientId }]);
  });

  it('does the same over the legacy HTTP + SSE transport', async () => {
    const result = await client.callTool({ name: 'legacy__whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: GATEWAY_CLIENT.clientId }]);
  });

  it('shows a server with a wrong client secret as failing, with the reason, and keeps serving', async () => {
    const readiness = await getJson('/health/ready');
    expect(readiness.status).toBe('ok');
    expect(notServing(readiness, 'wrongsecret')).toMatchObject({
      listed: false,
      last_error: 'OAuth invalid_client: client authentication failed',
    });

    const admin = await getJson('/admin/mcp/servers/wrongsecret', {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(admin.status).not.toBe('Connected');
    expect(admin.last_error).toContain('OAuth invalid_client: client authentication failed');
    expect(JSON.stringify(admin)).not.toContain('not-the-secret');
  });

  it('refuses to send the secret to an authorization server other than the pinned issuer', async () => {
    const readiness = await getJson('/health/ready');
    expect(notServing(readiness, 'elsewhere')?.last_error).toMatch(
      /bound to authorization server http:\/\/127\.0\.0\.1:9\//,
    );
  });

  it('masks the client secret in the admin API and keeps the reference readable', async () => {
    const admin = await getJson('/admin/mcp/servers/secured', {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(admin.record.http.oauth).toEqual({
      client_id: GATEWAY_CLIENT.clientId,
      client_secret_ref: 'file:../right.secret',
      client_secret: '***',
      scope: 'tools',
      issuer: authServer.issuer,
    });
    expect(JSON.stringify(admin)).not.toContain(GATEWAY_CLIENT.clientSecret);
  });
});

describe('client tokens are never forwarded', () => {
  it("sends the upstream only tokens for the upstream, never the client's", async () => {
    await client.callTool({ name: 'secured__whoami', arguments: {} });

    expect(upstream.received.length).toBeGreaterThan(0);
    expect(JSON.stringify(upstream.received)).not.toContain(clientToken);
    const keys = createRemoteJWKSet(new URL(authServer.jwksUri));
    const bearers = upstream.authorizations;
    expect(bearers.length).toBeGreaterThan(0);
    for (const authorization of bearers) {
      expect(authorization).toMatch(/^Bearer /);
      const { payload } = await jwtVerify(authorization.slice('Bearer '.length), keys, {
        issuer: authServer.issuer,
        audience: [upstream.url, upstream.sseUrl],
      });
      expect(payload.client_id).toBe(GATEWAY_CLIENT.clientId);
    }
  });
});

describe('a token the upstream stops accepting', () => {
  it("is replaced by the SDK on the upstream's 401, and the call goes through", async () => {
    const before = upstream.authorizations.map((authorization) =>
      authorization.slice('Bearer '.length),
    );
    expect(before.length).toBeGreaterThan(0);
    for (const token of before) upstream.revoked.add(token);

    const result = await client.callTool({ name: 'secured__whoami', arguments: {} });

    expect(result.content).toEqual([{ type: 'text', text: GATEWAY_CLIENT.clientId }]);
    const fresh = upstream.authorizations
      .map((authorization) => authorization.slice('Bearer '.length))
      .filter((token) => !before.includes(token));
    expect(fresh.length).toBeGreaterThan(0);
    const keys = createRemoteJWKSet(new URL(authServer.jwksUri));
    const { payload } = await jwtVerify(fresh[0], keys, {
      issuer: authServer.issuer,
      audience: upstream.url,
    });
    expect(payload.client_id).toBe(GATEWAY_CLIENT.clientId);
  });
});
