import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpGatewayChild } from '../support/http-child';
import { AuthorizationServer } from '../support/oauth/authorization-server';
import { HeadlessOAuthClient } from '../support/oauth/headless-oauth-client';
import { generateSigningKey } from '../support/oauth/signing-keys';
import { freePort } from '../support/redis-server';
import { allToolNames } from '../support/sdk-list-pages';
import { makeTempDir, removeDir } from '../support/skills-dir';
import { waitForLedgerRows } from '../support/sqlite-ledger';

/**
 * The gateway as an OAuth 2.1 protected resource, driven by the official MCP
 * SDK client's own OAuth support against a real authorization server
 * (oidc-provider in its own process): 401 -> RFC 9728 metadata -> discovery
 * -> dynamic registration -> code + PKCE with the resource indicator ->
 * calls under the token's identity; step-up to a scope a tool needs; client
 * credentials under that client's quotas; the admin API with the admin
 * scope. Then every token the test obtained is searched for in the logs,
 * the ledger, the metrics and the admin answers, and found nowhere.
 */

const BOT = { clientId: 'billing-bot', clientSecret: 'billing-bot-secret-0123456789abcdef' };
const OPS = { clientId: 'ops-console', clientSecret: 'ops-console-secret-0123456789abcdef' };
const BOT_CALLS_PER_MINUTE = 3;

let dir: string;
let ledgerPath: string;
let server: AuthorizationServer;
let gateway: HttpGatewayChild;
let resource: string;
/** Every access token the clients were given, to search for afterwards. */
const issuedTokens: string[] = [];

interface LedgerRowColumns {
  client_id: string;
  target: string;
  outcome: string;
  denial_reason: string | null;
  subject: string | null;
  token_id: string | null;
}

beforeAll(async () => {
  dir = makeTempDir('oauth-flow');
  ledgerPath = join(dir, 'ledger.db');
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  server = await AuthorizationServer.start({
    keys: [await generateSigningKey('RS256', 'flow-key-1')],
    resources: { [resource]: { scope: 'mcp orders.write mcp.admin' } },
    clients: [
      { ...BOT, scope: 'mcp' },
      { ...OPS, scope: 'mcp mcp.admin' },
    ],
  });
  const configPath = join(dir, 'mcp-server.yaml');
  writeFileSync(configPath, gatewayConfig(port, server.issuer));
  gateway = await HttpGatewayChild.start({ MCP_SERVER_CONFIG: configPath });
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await server?.stop();
  removeDir(dir);
});

function gatewayConfig(port: number, issuer: string): string {
  return `mcp_server:
  transport: http
  http: { host: 127.0.0.1, port: ${port} }
  ledger: { sqlite_path: ${JSON.stringify(ledgerPath)} }
  logging: { level: debug }
  governance:
    default_quota: { monthly_budget: 1000, max_calls_per_minute: 1000, max_calls_per_day: 10000, max_cost_per_call: 10 }
    clients:
      ${BOT.clientId}:
        quota: { max_calls_per_minute: ${BOT_CALLS_PER_MINUTE} }
  auth:
    mode: oauth
    oauth:
      resource: ${JSON.stringify(resource)}
      issuers: [${JSON.stringify(issuer)}]
      required_scopes: [mcp]
      scopes:
        orders.write: { tools: [fx_add] }
      admin_scope: mcp.admin
`;
}

/** A provider that remembers what it was given, so the test can search for the tokens later. */
function remembering<
  T extends { saveTokens(tokens: { access_token: string }): void | Promise<void> },
>(provider: T): T {
  const save = provider.saveTokens.bind(provider);
  provider.saveTokens = (tokens: { access_token: string }) => {
    issuedTokens.push(tokens.access_token);
    return save(tokens);
  };
  return provider;
}

function transportFor(provider: HeadlessOAuthClient | ClientCredentialsProvider) {
  return new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider });
}

async function connected(provider: HeadlessOAuthClient | ClientCredentialsProvider) {
  const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
  await client.connect(transportFor(provider));
  return client;
}

/** A public client registered at the authorization server (RFC 7591) for the given scopes. */
async function registerPublicClient(scope: string) {
  const response = await fetch(`${server.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'step-up app',
      redirect_uris: [new HeadlessOAuthClient().redirectUrl],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope,
    }),
  });
  expect(response.status).toBe(201);
  const { client_id } = (await response.json()) as { client_id: string };
  return { client_id };
}

describe('the SDK client, authorization code + PKCE, dynamic registration', () => {
  it('goes from 401 to a token, then lists and calls tools as the signed-in user', async () => {
    const alice = remembering(new HeadlessOAuthClient({ account: 'alice', refreshTokens: false }));
    const first = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    const transport = transportFor(alice);
    // The SDK met the 401, found the metadata and the authorization server, registered and
    // sent the user to authorize; the headless user consented and the code came back.
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(alice.authorizationCode).toEqual(expect.any(String));
    await transport.finishAuth(alice.authorizationCode!);

    const client = await connected(alice);
    const names = await allToolNames(client);
    expect(names).toContain('fx_counter');
    // fx_add needs orders.write, which the token does not carry: hidden from the list.
    expect(names).not.toContain('fx_add');
    const result = await client.callTool({ name: 'fx_counter', arguments: {} });
    expect(result.isError).toBeFalsy();

    const clientId = alice.clientInformation()!.client_id;
    const rows = await waitForLedgerRows<LedgerRowColumns>(ledgerPath, clientId, 1);
    expect(rows[0]).toMatchObject({ target: 'fx_counter', outcome: 'success', subject: 'alice' });
    expect(rows[0].token_id).toEqual(expect.any(String));
    await client.close();
  });

  it('steps up: a tool that needs another scope answers 403 insufficient_scope, and a new authorization with it succeeds', async () => {
    // An app registered once for every scope it may ask for (the SDK would register with only the
    // first challenge's scope, and this authorization server holds clients to what they registered).
    const bob = remembering(
      new HeadlessOAuthClient({
        account: 'bob',
        refreshTokens: false,
        clientInformation: await registerPublicClient('mcp orders.write'),
      }),
    );
    const first = transportFor(bob);
    await expect(new Client({ name: 'e2e', version: '1' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await first.finishAuth(bob.authorizationCode!);
    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    const transport = transportFor(bob);
    await client.connect(transport);

    // The SDK reads the challenge (scope="mcp orders.write") and asks the user again.
    const before = bob.authorizationCode;
    await expect(
      client.callTool({ name: 'fx_add', arguments: { a: 2, b: 3 } }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    expect(bob.authorizationCode).not.toBe(before);
    await transport.finishAuth(bob.authorizationCode!);

    const result = await client.callTool({ name: 'fx_add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(await allToolNames(client)).toContain('fx_add');
    await client.close();
  });
});

describe('the SDK client, client credentials', () => {
  it("calls under the client's own quotas: the client id claim meters it", async () => {
    const bot = remembering(
      new ClientCredentialsProvider({ ...BOT, scope: 'mcp', expectedIssuer: server.issuer }),
    );
    const client = await connected(bot);
    const outcomes: string[] = [];
    for (let i = 0; i <= BOT_CALLS_PER_MINUTE; i++) {
      const result = await client
        .request(
          { method: 'tools/call', params: { name: 'fx_counter', arguments: {} } },
          CallToolResultSchema,
        )
        .then(
          () => 'ok',
          (err: { code?: number }) => `error ${err.code}`,
        );
      outcomes.push(result);
    }
    expect(outcomes.slice(0, BOT_CALLS_PER_MINUTE)).toEqual(Array(BOT_CALLS_PER_MINUTE).fill('ok'));
    expect(outcomes[BOT_CALLS_PER_MINUTE]).toMatch(/^error -320/);
    const rows = await waitForLedgerRows<LedgerRowColumns>(
      ledgerPath,
      BOT.clientId,
      BOT_CALLS_PER_MINUTE + 1,
    );
    expect(rows.map((row) => row.denial_reason)).toContain('rate_limited');
    // A client-credentials token acts for its client: sub is the client id.
    expect(new Set(rows.map((row) => row.subject))).toEqual(new Set([BOT.clientId]));
    await client.close();
  });
});

describe('the admin API with the admin scope', () => {
  async function accessToken(client: typeof OPS, scope: string): Promise<string> {
    const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
    const response = await fetch(`${server.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
    });
    const { access_token } = (await response.json()) as { access_token: string };
    issuedTokens.push(access_token);
    return access_token;
  }

  it('answers a token with mcp.admin and refuses one without it (403 insufficient_scope)', async () => {
    const admin = await accessToken(OPS, 'mcp mcp.admin');
    const ledger = await fetch(`${gateway.baseUrl}/admin/ledger?limit=50`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(ledger.status).toBe(200);
    const page = (await ledger.json()) as { items: Array<{ subject: string | null }> };
    expect(page.items.some((item) => item.subject === 'alice')).toBe(true);

    const plain = await accessToken(BOT, 'mcp');
    const refused = await fetch(`${gateway.baseUrl}/admin/ledger`, {
      headers: { authorization: `Bearer ${plain}` },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect(refused.headers.get('www-authenticate')).toMatch(/scope="mcp.admin"/);
  });
});

describe('tokens travel no further than the check', () => {
  it('appear in no log line, ledger row, metric or admin answer', async () => {
    expect(issuedTokens.length).toBeGreaterThanOrEqual(5);
    const admin = issuedTokens.at(-2)!;
    const adminAnswers = await Promise.all(
      ['/admin/ledger?limit=200', '/admin/openapi.json', '/admin/mcp/servers'].map(async (path) =>
        (
          await fetch(`${gateway.baseUrl}${path}`, {
            headers: { authorization: `Bearer ${admin}` },
          })
        ).text(),
      ),
    );
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
    // The database, its WAL and the journal files: every byte the ledger keeps.
    const ledgerFiles = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'mcp-server.yaml')
      .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
      .join('\n');
    const places = { logs: gateway.stderr, metrics, ledgerFiles, admin: adminAnswers.join('\n') };
    for (const token of issuedTokens) {
      // The signature part alone is enough to give a token away.
      const signature = token.split('.').at(-1)!;
      for (const [where, text] of Object.entries(places)) {
        expect({ where, found: text.includes(token) || text.includes(signature) }).toEqual({
          where,
          found: false,
        });
      }
    }
  });
});
