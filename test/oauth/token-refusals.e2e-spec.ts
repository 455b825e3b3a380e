import { createHash } from 'node:crypto';
import { DeepPartial } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import { OAUTH_LIMITS } from '../../src/governance/identity/oauth/oauth.limits';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { AuthorizationServer } from '../support/oauth/authorization-server';
import {
  BearerAnswer,
  challengeParams,
  initializeFrame,
  mcpRequest,
  openSessionWith,
  rpc,
} from '../support/oauth/bearer-http';
import { CountingIssuerProxy } from '../support/oauth/counting-issuer-proxy';
import { accessTokenClaims, signToken, unsignedToken } from '../support/oauth/forged-tokens';
import { generateSigningKey } from '../support/oauth/signing-keys';
import { freePort } from '../support/redis-server';

/**
 * Every way an access token is refused over real HTTP, against the real oidc-provider harness:
 * the status, the RFC 6750 / RFC 9728 `WWW-Authenticate` challenge and the JSON-RPC error body;
 * scope step-up, session binding, JWKS rotation and refetch bounds, and introspection.
 */

const CC_CLIENT = {
  clientId: 'gateway-tests',
  clientSecret: 'gateway-tests-secret-0123456789abcdef',
};
const INTROSPECTOR = {
  clientId: 'introspector',
  clientSecret: 'introspector-secret-0123456789abcdef',
};
const INTROSPECTION_SECRET_ENV = 'OWLCLAW_TEST_INTROSPECTION_SECRET';
/** A resource some other server owns: real tokens for it must not open this gateway. */
const ELSEWHERE = 'http://127.0.0.1:9/elsewhere';
/** The fixture tool that `auth.oauth.scopes` guards in these suites. */
const GUARDED_TOOL = 'fx_add';

function resourceAt(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}

function metadataUrlAt(port: number): string {
  return `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
}

async function gatewayOn(
  port: number,
  config: DeepPartial<GatewayConfig>,
): Promise<HttpGatewayHandle> {
  return startHttpGateway({ fixtures: true, config: { ...config, http: { port } } });
}

/** A real client-credentials access token from `server` (JWT or opaque, as the resource says). */
async function realToken(
  server: AuthorizationServer,
  scope: string,
  resource: string | undefined,
): Promise<string> {
  const basic = Buffer.from(`${CC_CLIENT.clientId}:${CC_CLIENT.clientSecret}`).toString('base64');
  const body = new URLSearchParams({ grant_type: 'client_credentials', scope });
  if (resource !== undefined) body.set('resource', resource);
  const response = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body,
  });
  if (response.status !== 200) throw new Error(`token request: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

interface ExpectedRefusal {
  status: 401 | 403 | 503;
  error?: 'invalid_token' | 'insufficient_scope';
  description?: RegExp;
  scope?: string;
}

/** The answer is the refusal: status, challenge naming the metadata, JSON-RPC error body. */
function expectRefusal(answer: BearerAnswer, metadataUrl: string, expected: ExpectedRefusal): void {
  expect(answer.status).toBe(expected.status);
  const params = challengeParams(answer.challenge);
  expect(params.resource_metadata).toBe(metadataUrl);
  expect(params.error).toBe(expected.error);
  expect(params.scope).toBe(expected.scope);
  if (expected.description) expect(params.error_description).toMatch(expected.description);
  else expect(params.error_description).toBeUndefined();
  expect(answer.sessionId).toBeNull();
  expect(answer.body).toMatchObject({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: expect.any(Number),
      message: expect.any(String),
      data: { http_status: expected.status, retryable: expected.status === 503 },
    },
  });
}

function toolNames(answer: BearerAnswer): string[] {
  const result = answer.body?.result as { tools: Array<{ name: string }> } | undefined;
  if (!result) throw new Error(`no tools/list result: ${JSON.stringify(answer.body)}`);
  return result.tools.map((tool) => tool.name);
}

describe('OAuth access tokens over HTTP', () => {
  let server: AuthorizationServer;
  let stranger: AuthorizationServer;
  let proxy: CountingIssuerProxy;
  let gateway: HttpGatewayHandle;
  let port: number;
  let resource: string;
  let metadataUrl: string;

  /** A token signed with the trusted server's own key, for exactly the claims a test wants. */
  const forged = (extra: Record<string, unknown> = {}) =>
    signToken(accessTokenClaims(server.issuer, resource, extra), server.keys[0]);
  const post = (token: string | undefined, body: object = initializeFrame()) =>
    mcpRequest(gateway.baseUrl, { token, body });

  beforeAll(async () => {
    port = await freePort();
    resource = resourceAt(port);
    metadataUrl = metadataUrlAt(port);
    server = await AuthorizationServer.start({
      resources: {
        [resource]: { scope: `mcp ${GUARDED_TOOL}.use` },
        [ELSEWHERE]: { scope: 'mcp' },
      },
      clients: [CC_CLIENT],
    });
    stranger = await AuthorizationServer.start({
      resources: { [resource]: { scope: 'mcp' } },
      clients: [CC_CLIENT],
    });
    proxy = await CountingIssuerProxy.start(server.issuer);
    gateway = await gatewayOn(port, {
      auth: {
        mode: 'oauth',
        oauth: {
          resource,
          issuers: [server.issuer, proxy.issuer],
          required_scopes: ['mcp'],
          scopes: { [`${GUARDED_TOOL}.use`]: { tools: [GUARDED_TOOL] } },
        },
      },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await server?.stop();
    await stranger?.stop();
  });

  it('accepts a real token for this resource (the control for every refusal below)', async () => {
    const answer = await post(await realToken(server, 'mcp', resource));
    expect(answer.status).toBe(200);
    expect(answer.sessionId).toEqual(expect.any(String));
    expect(answer.challenge).toBeNull();
  });

  it('answers no token with 401 naming the metadata and the required scope, without an error', async () => {
    expectRefusal(await post(undefined), metadataUrl, { status: 401, scope: 'mcp' });
  });

  describe('refuses with 401 invalid_token', () => {
    const invalid = (description: RegExp) =>
      ({ status: 401, error: 'invalid_token', description, scope: 'mcp' }) as const;
    const now = () => Math.floor(Date.now() / 1000);

    it('an expired token (beyond the clock leeway)', async () => {
      const token = await forged({ iat: now() - 7200, exp: now() - 3600 });
      expectRefusal(await post(token), metadataUrl, invalid(/expired/));
    });

    it('a token that is not valid yet (nbf beyond the leeway)', async () => {
      const token = await forged({ nbf: now() + 3600 });
      expectRefusal(await post(token), metadataUrl, invalid(/not valid yet \(nbf\)/));
    });

    it('a token issued in the future (iat beyond the leeway)', async () => {
      const token = await forged({ iat: now() + 3600, exp: now() + 7200 });
      expectRefusal(await post(token), metadataUrl, invalid(/issued in the future/));
    });

    it('a token whose exp is absurdly far ahead (1e300), past the maximum lifetime', async () => {
      const token = await forged({ exp: 1e300 });
      expectRefusal(await post(token), metadataUrl, invalid(/max_token_lifetime_seconds/));
    });

    it('a token whose iat is not a number', async () => {
      const token = await forged({ iat: 'soon' });
      expectRefusal(await post(token), metadataUrl, invalid(/iat claim is not a number/));
    });

    it('a real token from an issuer the gateway does not trust', async () => {
      const token = await realToken(stranger, 'mcp', resource);
      expectRefusal(await post(token), metadataUrl, invalid(/issuer this gateway does not trust/));
    });

    it("a token naming a trusted issuer but signed with another server's key", async () => {
      const token = await signToken(accessTokenClaims(server.issuer, resource), stranger.keys[0], {
        kid: server.keys[0].kid,
      });
      expectRefusal(await post(token), metadataUrl, invalid(/signature does not verify/));
    });

    it('a real token issued for another resource', async () => {
      const token = await realToken(server, 'mcp', ELSEWHERE);
      expectRefusal(await post(token), metadataUrl, invalid(/not for this resource/));
    });

    it('a token without aud, signed with the provider key', async () => {
      const token = await forged({ aud: undefined });
      expectRefusal(await post(token), metadataUrl, invalid(/not for this resource/));
    });

    it('a real opaque token without audience when introspection is off', async () => {
      const token = await realToken(server, 'mcp', undefined);
      expect(token.split('.')).toHaveLength(1);
      expectRefusal(
        await post(token),
        metadataUrl,
        invalid(/not a JWT and token introspection is off/),
      );
    });

    it('an unsigned token (alg none)', async () => {
      const token = unsignedToken(accessTokenClaims(server.issuer, resource));
      expectRefusal(await post(token), metadataUrl, invalid(/./));
    });

    it('a token signed with the HMAC family, keyed with the public key material', async () => {
      const key = { kty: 'oct', k: Buffer.from(server.keys[0].n ?? 'x').toString('base64url') };
      const token = await signToken(accessTokenClaims(server.issuer, resource), key, {
        alg: 'HS256',
      });
      expectRefusal(
        await post(token),
        metadataUrl,
        invalid(/algorithm this gateway does not accept/),
      );
    });

    it('a token signed by a key the issuer does not publish', async () => {
      const token = await signToken(
        accessTokenClaims(server.issuer, resource),
        await generateSigningKey(),
      );
      expectRefusal(await post(token), metadataUrl, invalid(/key its issuer does not publish/));
    });

    it('a token longer than the limit, unread', async () => {
      const token = `${'a'.repeat(OAUTH_LIMITS.maxTokenChars)}.b.c`;
      expectRefusal(await post(token), metadataUrl, invalid(/longer than/));
    });

    it("a token beyond Node's header limit, refused by Node itself (431)", async () => {
      const answer = await post('a'.repeat(64 * 1024));
      expect(answer.status).toBe(431);
      expect(answer.sessionId).toBeNull();
    });

    it.each([
      ['not a JWT', 'garbage-token'],
      ['three dots of nonsense', 'not.a.jwt'],
      ['a JWT of non-JSON parts', `${Buffer.from('{').toString('base64url')}.e30.c2ln`],
    ])('garbage: %s', async (_what, token) => {
      expectRefusal(await post(token), metadataUrl, invalid(/./));
    });

    it('never echoes the token in the answer', async () => {
      const token = await forged({ iat: now() - 7200, exp: now() - 3600 });
      const answer = await post(token);
      expect(JSON.stringify(answer.body)).not.toContain(token.split('.')[1]);
      expect(answer.challenge).not.toContain(token.split('.')[1]);
    });
  });

  describe('scopes', () => {
    const stepUp = {
      status: 403,
      error: 'insufficient_scope',
      description: new RegExp(`the tool ${GUARDED_TOOL} needs the scope ${GUARDED_TOOL}\\.use`),
      // Everything the new token needs: the required scopes with the one that unlocks the tool.
      scope: `mcp ${GUARDED_TOOL}.use`,
    } as const;

    it('refuses a token without the required scopes with 403 naming them', async () => {
      const token = await realToken(server, `${GUARDED_TOOL}.use`, resource);
      expectRefusal(await post(token), metadataUrl, {
        status: 403,
        error: 'insufficient_scope',
        description: /needs the scopes mcp/,
        scope: 'mcp',
      });
    });

    it('hides a guarded tool from a token without its scope, and answers its call 403', async () => {
      const token = await realToken(server, 'mcp', resource);
      const sessionId = await openSessionWith(gateway.baseUrl, token);

      const list = await mcpRequest(gateway.baseUrl, {
        token,
        sessionId,
        body: rpc(2, 'tools/list'),
      });
      expect(list.status).toBe(200);
      expect(toolNames(list)).not.toContain(GUARDED_TOOL);
      expect(toolNames(list)).toContain('fx_counter');

      const call = await mcpRequest(gateway.baseUrl, {
        token,
        sessionId,
        body: rpc(3, 'tools/call', { name: GUARDED_TOOL, arguments: { a: 1, b: 2 } }),
      });
      expectRefusal(call, metadataUrl, stepUp);
    });

    it('lists and runs the guarded tool for a token holding its scope', async () => {
      const token = await realToken(server, `mcp ${GUARDED_TOOL}.use`, resource);
      const sessionId = await openSessionWith(gateway.baseUrl, token);

      const list = await mcpRequest(gateway.baseUrl, {
        token,
        sessionId,
        body: rpc(2, 'tools/list'),
      });
      expect(toolNames(list)).toContain(GUARDED_TOOL);
      const call = await mcpRequest(gateway.baseUrl, {
        token,
        sessionId,
        body: rpc(3, 'tools/call', { name: GUARDED_TOOL, arguments: { a: 1, b: 2 } }),
      });
      expect(call.status).toBe(200);
      expect(call.body).toMatchObject({ result: { structuredContent: { sum: 3 } } });
    });

    it('leaves the session usable after a step-up refusal', async () => {
      const token = await realToken(server, 'mcp', resource);
      const sessionId = await openSessionWith(gateway.baseUrl, token);
      // The token is refused for the call; the session stays usable for what it may do.
      const call = await mcpRequest(gateway.baseUrl, {
        token,
        sessionId,
        body: rpc(4, 'tools/call', { name: GUARDED_TOOL, arguments: { a: 1, b: 2 } }),
      });
      expect(call.status).toBe(403);
      const ping = await mcpRequest(gateway.baseUrl, { token, sessionId, body: rpc(5, 'ping') });
      expect(ping.status).toBe(200);
      expect(ping.body).toMatchObject({ id: 5, result: {} });
    });
  });

  describe('sessions', () => {
    it("refuses another identity's token on a session with 403, and takes the same identity's new token", async () => {
      const alice = await forged({ sub: 'alice' });
      const sessionId = await openSessionWith(gateway.baseUrl, alice);

      const mallory = await forged({ sub: 'mallory' });
      const hijack = await mcpRequest(gateway.baseUrl, {
        token: mallory,
        sessionId,
        body: rpc(2, 'tools/list'),
      });
      expect(hijack.status).toBe(403);
      expect(hijack.body).toMatchObject({
        error: { message: expect.stringMatching(/belongs to another client/) },
      });
      const deleted = await mcpRequest(gateway.baseUrl, {
        method: 'DELETE',
        token: mallory,
        sessionId,
      });
      expect(deleted.status).toBe(403);

      // A refreshed token of alice (another jti) is the same identity.
      const refreshed = await forged({ sub: 'alice' });
      const list = await mcpRequest(gateway.baseUrl, {
        token: refreshed,
        sessionId,
        body: rpc(3, 'tools/list'),
      });
      expect(list.status).toBe(200);
    });

    it('refuses a token of the same subject from another client on the session', async () => {
      const sessionId = await openSessionWith(
        gateway.baseUrl,
        await forged({ client_id: 'app-a' }),
      );
      const other = await mcpRequest(gateway.baseUrl, {
        token: await forged({ client_id: 'app-b' }),
        sessionId,
        body: rpc(2, 'ping'),
      });
      expect(other.status).toBe(403);
    });

    it.each(['GET', 'DELETE'] as const)(
      'refuses %s /mcp without a token or with a bad one, like POST',
      async (method) => {
        const token = await realToken(server, 'mcp', resource);
        const sessionId = await openSessionWith(gateway.baseUrl, token);

        expectRefusal(await mcpRequest(gateway.baseUrl, { method, sessionId }), metadataUrl, {
          status: 401,
          scope: 'mcp',
        });
        const expired = await forged({ exp: Math.floor(Date.now() / 1000) - 3600 });
        expectRefusal(
          await mcpRequest(gateway.baseUrl, { method, sessionId, token: expired }),
          metadataUrl,
          { status: 401, error: 'invalid_token', description: /expired/, scope: 'mcp' },
        );
        const accepted = await mcpRequest(gateway.baseUrl, { method, sessionId, token });
        expect(accepted.status).toBe(200);
      },
    );
  });

  describe('protected resource metadata (RFC 9728)', () => {
    it.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])(
      'serves the document at %s',
      async (path) => {
        const response = await fetch(`${gateway.baseUrl}${path}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          resource,
          authorization_servers: [server.issuer, proxy.issuer],
          scopes_supported: ['mcp', `${GUARDED_TOOL}.use`],
          bearer_methods_supported: ['header'],
          resource_name: gateway.config.server.name,
        });
      },
    );

    it('has no document for a path that is not the resource', async () => {
      const response = await fetch(`${gateway.baseUrl}/.well-known/oauth-protected-resource/other`);
      expect(response.status).toBe(404);
    });
  });

  describe('JWKS fetches', () => {
    it('fetches the key set a bounded number of times for a stream of tokens with unknown kids', async () => {
      const valid = await signToken(accessTokenClaims(proxy.issuer, resource), server.keys[0]);
      expect((await post(valid)).status).toBe(200);
      const fetchesAfterFirstUse = proxy.requests('/jwks');
      expect(fetchesAfterFirstUse).toBe(1);

      const forger = await generateSigningKey();
      for (let i = 0; i < 25; i++) {
        const token = await signToken(accessTokenClaims(proxy.issuer, resource), forger, {
          kid: `random-${i}-${Math.random().toString(36).slice(2)}`,
        });
        expect((await post(token)).status).toBe(401);
      }
      // Within the 30 s cooldown at most one refetch happens, whatever the number of forged kids.
      expect(proxy.requests('/jwks')).toBeLessThanOrEqual(fetchesAfterFirstUse + 1);
    });
  });
});

describe('JWKS rotation', () => {
  let server: AuthorizationServer;
  let gateway: HttpGatewayHandle;
  let resource: string;
  let metadataUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    resource = resourceAt(port);
    metadataUrl = metadataUrlAt(port);
    server = await AuthorizationServer.start({
      resources: { [resource]: { scope: 'mcp' } },
      clients: [CC_CLIENT],
    });
    gateway = await gatewayOn(port, {
      auth: {
        mode: 'oauth',
        oauth: { resource, issuers: [server.issuer], jwks_refresh_cooldown_seconds: 0 },
      },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('accepts a token signed by the new key after a restart, and refuses the retired key', async () => {
    const before = await realToken(server, 'mcp', resource);
    expect(
      (await mcpRequest(gateway.baseUrl, { token: before, body: initializeFrame() })).status,
    ).toBe(200);

    await server.restart({ keys: [await generateSigningKey('ES256', 'rotated-key')] });

    const after = await realToken(server, 'mcp', resource);
    expect(
      (await mcpRequest(gateway.baseUrl, { token: after, body: initializeFrame() })).status,
    ).toBe(200);
    expectRefusal(
      await mcpRequest(gateway.baseUrl, { token: before, body: initializeFrame() }),
      metadataUrl,
      {
        status: 401,
        error: 'invalid_token',
        description: /key its issuer does not publish/,
      },
    );
  });
});

describe('token introspection (opaque tokens)', () => {
  let server: AuthorizationServer;
  let gateway: HttpGatewayHandle;
  let resource: string;
  let metadataUrl: string;
  const previousSecret = process.env[INTROSPECTION_SECRET_ENV];

  beforeAll(async () => {
    const port = await freePort();
    resource = resourceAt(port);
    metadataUrl = metadataUrlAt(port);
    server = await AuthorizationServer.start({
      resources: {
        [resource]: { scope: 'mcp', format: 'opaque' },
        [ELSEWHERE]: { scope: 'mcp', format: 'opaque' },
      },
      clients: [CC_CLIENT, INTROSPECTOR],
    });
    // The secret is read from the gateway process's environment (env:NAME), never the config.
    process.env[INTROSPECTION_SECRET_ENV] = INTROSPECTOR.clientSecret;
    gateway = await gatewayOn(port, {
      auth: {
        mode: 'oauth',
        oauth: {
          resource,
          issuers: [server.issuer],
          introspection: {
            enabled: true,
            client_id: INTROSPECTOR.clientId,
            client_secret_ref: `env:${INTROSPECTION_SECRET_ENV}`,
          },
        },
      },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
    if (previousSecret === undefined) delete process.env[INTROSPECTION_SECRET_ENV];
    else process.env[INTROSPECTION_SECRET_ENV] = previousSecret;
  });

  const post = (token: string) => mcpRequest(gateway.baseUrl, { token, body: initializeFrame() });

  it('accepts an active opaque token for this resource', async () => {
    const token = await realToken(server, 'mcp', resource);
    expect(token.split('.')).toHaveLength(1);
    const answer = await post(token);
    expect(answer.status).toBe(200);
    expect(answer.sessionId).toEqual(expect.any(String));
  });

  it('refuses an opaque token the server does not know (inactive)', async () => {
    expectRefusal(await post('opaque-token-nobody-issued'), metadataUrl, {
      status: 401,
      error: 'invalid_token',
      description: /not active/,
    });
  });

  it('refuses an active opaque token for another resource', async () => {
    const token = await realToken(server, 'mcp', ELSEWHERE);
    expectRefusal(await post(token), metadataUrl, {
      status: 401,
      error: 'invalid_token',
      description: /not for this resource/,
    });
  });

  it('refuses a revoked token once the server says it is inactive', async () => {
    const token = await realToken(server, 'mcp', resource);
    const basic = Buffer.from(`${CC_CLIENT.clientId}:${CC_CLIENT.clientSecret}`).toString('base64');
    const revoked = await fetch(`${server.issuer}/token/revocation`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ token }),
    });
    expect(revoked.status).toBe(200);
    expectRefusal(await post(token), metadataUrl, {
      status: 401,
      error: 'invalid_token',
      description: /not active/,
    });
  });

  it('answers 503 while the authorization server is down, and keeps serving', async () => {
    await server.stop();
    const down = await post('opaque-token-asked-while-the-server-is-down');
    expectRefusal(down, metadataUrl, { status: 503 });
    expect(down.body).toMatchObject({
      error: { message: expect.stringMatching(/cannot be reached/) },
    });

    const again = await post('another-opaque-token-while-down');
    expect(again.status).toBe(503);
    const metadata = await fetch(`${gateway.baseUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
  });
});

describe('auth.mode oauth_or_api_key', () => {
  const API_KEY = 'either-mode-api-key-0123456789';
  let server: AuthorizationServer;
  let gateway: HttpGatewayHandle;
  let resource: string;
  let metadataUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    resource = resourceAt(port);
    metadataUrl = metadataUrlAt(port);
    server = await AuthorizationServer.start({
      resources: { [resource]: { scope: 'mcp' } },
      clients: [CC_CLIENT],
    });
    const sha = createHash('sha256').update(API_KEY).digest('hex');
    gateway = await gatewayOn(port, {
      auth: {
        mode: 'oauth_or_api_key',
        api_keys: [`key-client:${sha}`],
        oauth: { resource, issuers: [server.issuer] },
      },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await server?.stop();
  });

  it('accepts a listed API key', async () => {
    const answer = await mcpRequest(gateway.baseUrl, { token: API_KEY, body: initializeFrame() });
    expect(answer.status).toBe(200);
  });

  it('accepts a real access token', async () => {
    const token = await realToken(server, 'mcp', resource);
    const answer = await mcpRequest(gateway.baseUrl, { token, body: initializeFrame() });
    expect(answer.status).toBe(200);
  });

  it('refuses anything else with the OAuth challenge, without scope when none is required', async () => {
    expectRefusal(await mcpRequest(gateway.baseUrl, { body: initializeFrame() }), metadataUrl, {
      status: 401,
    });
    expectRefusal(
      await mcpRequest(gateway.baseUrl, {
        token: 'not-a-key-nor-a-token',
        body: initializeFrame(),
      }),
      metadataUrl,
      { status: 401, error: 'invalid_token', description: /not a JWT/ },
    );
  });
});

describe('protected resource metadata without OAuth', () => {
  it.each(['none', 'api_key'] as const)('is 404 in auth.mode %s', async (mode) => {
    const sha = createHash('sha256').update('some-key').digest('hex');
    const gateway = await startHttpGateway({
      config: { auth: { mode, api_keys: [`c:${sha}`] } },
    });
    try {
      for (const path of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
      ]) {
        expect((await fetch(`${gateway.baseUrl}${path}`)).status).toBe(404);
      }
    } finally {
      await gateway.close();
    }
  });
});
