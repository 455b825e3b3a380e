import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { AuthorizationServer } from '../support/oauth/authorization-server';
import { accessTokenClaims, signToken, unsignedToken } from '../support/oauth/forged-tokens';
import { HeadlessOAuthClient } from '../support/oauth/headless-oauth-client';
import { generateSigningKey } from '../support/oauth/signing-keys';
import { isLive } from '../support/process-table';

/**
 * The OAuth test harness against the real oidc-provider in its own process: discovery, client
 * credentials, dynamic registration, the MCP SDK's code + PKCE flow with a resource indicator
 * (headless), introspection of opaque tokens and key rotation across a restart.
 */

const CC_CLIENT = {
  clientId: 'gateway-tests',
  clientSecret: 'gateway-tests-secret-0123456789abcdef',
};
const INTROSPECTOR = {
  clientId: 'introspector',
  clientSecret: 'introspector-secret-0123456789abcdef',
};

let server: AuthorizationServer;
let resourceServer: Server;
let mcpResource: string;
let opaqueResource: string;

/** A stand-in for the gateway: serves only its RFC 9728 protected resource metadata. */
async function startResourceMetadataServer(): Promise<Server> {
  const http = createServer((req, res) => {
    if (!req.url?.startsWith('/.well-known/oauth-protected-resource')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ resource: mcpResource, authorization_servers: [server.issuer] }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return http;
}

interface Jwks {
  keys: Array<Record<string, unknown>>;
}

async function getJson<T>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

/** The token endpoint's raw answer to a client credentials request (no `resource` when undefined). */
function clientCredentialsToken(resource: string | undefined, scope: string): Promise<Response> {
  const basic = Buffer.from(`${CC_CLIENT.clientId}:${CC_CLIENT.clientSecret}`).toString('base64');
  const body = new URLSearchParams({ grant_type: 'client_credentials', scope });
  if (resource !== undefined) body.set('resource', resource);
  return fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body,
  });
}

async function accessToken(resource: string | undefined, scope: string): Promise<string> {
  const response = await clientCredentialsToken(resource, scope);
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function introspect(token: string): Promise<Record<string, unknown>> {
  const basic = Buffer.from(`${INTROSPECTOR.clientId}:${INTROSPECTOR.clientSecret}`).toString(
    'base64',
  );
  const response = await fetch(`${server.issuer}/token/introspection`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body: new URLSearchParams({ token }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  resourceServer = await startResourceMetadataServer();
  const base = `http://127.0.0.1:${(resourceServer.address() as AddressInfo).port}`;
  mcpResource = `${base}/mcp`;
  opaqueResource = `${base}/opaque`;
  server = await AuthorizationServer.start({
    resources: {
      [mcpResource]: { scope: 'mcp orders.read orders.write' },
      [opaqueResource]: { scope: 'mcp', format: 'opaque' },
    },
    clients: [{ ...CC_CLIENT, scope: 'mcp orders.read' }, INTROSPECTOR],
  });
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => resourceServer?.close(resolve));
});

describe('the test authorization server', () => {
  it('publishes its OpenID discovery document and a JWKS without private members', async () => {
    const metadata = await getJson<Record<string, unknown>>(
      `${server.issuer}/.well-known/openid-configuration`,
    );
    expect(metadata).toMatchObject({
      issuer: server.issuer,
      jwks_uri: server.jwksUri,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      registration_endpoint: `${server.issuer}/reg`,
      introspection_endpoint: `${server.issuer}/token/introspection`,
    });
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']),
    );

    const jwks = await getJson<Jwks>(server.jwksUri);
    expect(jwks.keys).toEqual([expect.objectContaining({ kid: server.keys[0].kid, kty: 'RSA' })]);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('issues a client credentials JWT for the resource that verifies against its JWKS', async () => {
    const token = await accessToken(mcpResource, 'mcp orders.read');

    const { payload, protectedHeader } = await jwtVerify(
      token,
      createRemoteJWKSet(new URL(server.jwksUri)),
      {
        issuer: server.issuer,
        audience: mcpResource,
      },
    );
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: server.keys[0].kid, typ: 'at+jwt' });
    expect(payload).toMatchObject({
      client_id: CC_CLIENT.clientId,
      sub: CC_CLIENT.clientId,
      scope: 'mcp orders.read',
    });
    expect(typeof payload.jti).toBe('string');
  });

  it('refuses a scope the pre-registered client is not allowed', async () => {
    const response = await clientCredentialsToken(mcpResource, 'orders.write');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('registers a client dynamically (open registration) and requires PKCE of it', async () => {
    const response = await fetch(`${server.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: ['http://127.0.0.1:1/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        scope: 'mcp',
      }),
    });
    expect(response.status).toBe(201);
    const registered = (await response.json()) as { client_id: string; scope: string };
    expect(registered).toMatchObject({ client_id: expect.any(String), scope: 'mcp' });

    // The registration works, but an authorization request without PKCE does not.
    const withoutPkce = new URL(`${server.issuer}/auth`);
    withoutPkce.search = new URLSearchParams({
      client_id: registered.client_id,
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:1/callback',
      resource: mcpResource,
      scope: 'mcp',
    }).toString();
    const browser = new HeadlessOAuthClient({ redirectUrl: 'http://127.0.0.1:1/callback' });
    await expect(browser.redirectToAuthorization(withoutPkce)).rejects.toThrow(
      /invalid_request.*requires PKCE/,
    );
  });

  it("runs the SDK's authorization code flow with PKCE and the resource indicator, headless", async () => {
    const client = new HeadlessOAuthClient({ account: 'bob', scope: 'mcp orders.read' });

    expect(await auth(client, { serverUrl: mcpResource })).toBe('REDIRECT');
    expect(client.authorizationCode).toEqual(expect.any(String));
    expect(client.clientInformation()?.client_id).toEqual(expect.any(String));
    expect(
      await auth(client, { serverUrl: mcpResource, authorizationCode: client.authorizationCode }),
    ).toBe('AUTHORIZED');

    const tokens = client.tokens();
    const jwks = createRemoteJWKSet(new URL(server.jwksUri));
    const { payload } = await jwtVerify(tokens!.access_token, jwks, {
      issuer: server.issuer,
      audience: mcpResource,
    });
    expect(payload).toMatchObject({
      sub: 'bob',
      scope: 'mcp orders.read',
      client_id: client.clientInformation()?.client_id,
    });
    expect(tokens!.refresh_token).toEqual(expect.any(String));

    // With a refresh token in hand, the SDK refreshes instead of redirecting again.
    expect(await auth(client, { serverUrl: mcpResource })).toBe('AUTHORIZED');
    expect(client.tokens()!.access_token).not.toBe(tokens!.access_token);
    await jwtVerify(client.tokens()!.access_token, jwks, {
      issuer: server.issuer,
      audience: mcpResource,
    });
  });

  it('introspects an opaque token as active for its resource, and a made-up one as inactive', async () => {
    const token = await accessToken(opaqueResource, 'mcp');
    expect(token.split('.')).toHaveLength(1);

    expect(await introspect(token)).toMatchObject({
      active: true,
      iss: server.issuer,
      aud: opaqueResource,
      client_id: CC_CLIENT.clientId,
      scope: 'mcp',
      exp: expect.any(Number),
    });
    expect(await introspect('not-a-token-this-server-issued')).toEqual({ active: false });
  });

  it('gives a request without a resource indicator an opaque token with no audience', async () => {
    const token = await accessToken(undefined, 'mcp');

    const answer = await introspect(token);
    expect(answer).toMatchObject({ active: true, client_id: CC_CLIENT.clientId });
    expect(answer).not.toHaveProperty('aud');
  });

  it("forges tokens with the server's own key that its JWKS accepts, and unsigned ones it cannot", async () => {
    const jwks = createRemoteJWKSet(new URL(server.jwksUri));
    const forged = await signToken(
      accessTokenClaims(server.issuer, mcpResource, { sub: 'mallory' }),
      server.keys[0],
    );
    const { payload } = await jwtVerify(forged, jwks, {
      issuer: server.issuer,
      audience: mcpResource,
    });
    expect(payload.sub).toBe('mallory');

    await expect(
      jwtVerify(unsignedToken(accessTokenClaims(server.issuer, mcpResource)), jwks),
    ).rejects.toThrow();
    const stranger = await signToken(
      accessTokenClaims(server.issuer, mcpResource),
      await generateSigningKey(),
    );
    await expect(jwtVerify(stranger, jwks)).rejects.toMatchObject({
      code: 'ERR_JWKS_NO_MATCHING_KEY',
    });
  });

  it('serves the new key set after a restart on the same issuer, and signs with it', async () => {
    const newKey = await generateSigningKey('ES256', 'rotated-key');
    const issuer = server.issuer;
    const oldPid = server.pid!;

    await server.restart({ keys: [newKey] });

    expect(server.issuer).toBe(issuer);
    expect(isLive(oldPid)).toBe(false);
    const jwks = await getJson<Jwks>(server.jwksUri);
    expect(jwks.keys.map((key) => key.kid)).toEqual(['rotated-key']);
    const token = await accessToken(mcpResource, 'mcp');
    expect(decodeProtectedHeader(token)).toMatchObject({ kid: 'rotated-key', alg: 'ES256' });
    await jwtVerify(token, createRemoteJWKSet(new URL(server.jwksUri)), {
      issuer,
      audience: mcpResource,
    });
  });

  it('stop() ends the process, and a second stop() is harmless', async () => {
    const other = await AuthorizationServer.start({
      resources: { [mcpResource]: { scope: 'mcp' } },
    });
    const pid = other.pid!;
    expect(isLive(pid)).toBe(true);

    await other.stop();
    await other.stop();

    expect(isLive(pid)).toBe(false);
    await expect(fetch(`${other.issuer}/jwks`)).rejects.toThrow();
  });
});
