/**
 * Issue #21, finding 1: without credentials, initialize requests carrying
 * megabytes of clientInfo and capabilities were each kept for the whole idle
 * TTL, with no cap on sessions, and logged whole; about 1,100 of 3 MB each
 * killed the process. Here the same flood, bounded, against a real gateway
 * process, and the session caps per client and in total.
 */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { SessionRegistry } from '../../src/session/session.registry';
import { HttpGatewayChild } from '../support/http-child';
import { McpPostAnswer, postMcp } from '../support/mcp-fetch';
import { startHttpGateway } from '../support/http-gateway';
import { connectSdkClient } from '../support/sdk-clients';
import { openSse } from '../support/sse-client';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';
import { testGatewayEnv } from '../support/test-defaults';
import { mib, RssSampler } from '../robustness/support/limits-client';
import { activeSessions, errorOf, logLines, refusals } from './support/limit-refusals';

const MiB = 1024 * 1024;
const METADATA_LIMIT = 16 * 1024;
const LOGGED_CLIENT_INFO = 64;
/** 60 initialize requests of 3 MB each, 3 at a time: 180 MB that the gateway must not keep. */
const FLOOD = 60;
const FLOOD_CONCURRENCY = 3;
const PAYLOAD_BYTES = 3_000_000;
/** Resident memory the flood may add while it runs; keeping the payloads would add over 180 MB. */
const RSS_BOUND = 150 * MiB;

const GATEWAY_ENV = {
  ...testGatewayEnv(),
  MCP_SERVER_HTTP_HOST: '127.0.0.1',
  MCP_SERVER_HTTP_PORT: '0',
  MCP_SERVER_LEDGER_ENABLED: 'false',
  // Above the payload, so that the metadata limit, not the body limit, is what refuses it.
  MCP_SERVER_HTTP_BODY_LIMIT_BYTES: String(8 * MiB),
  MCP_SERVER_LIMITS_LOGGED_CLIENT_INFO_BYTES: String(LOGGED_CLIENT_INFO),
};

function initializeBody(id: number | string, params: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params });
}

const smallParams = (name = 'normal') => ({
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name, version: '1.0.0' },
});

/** A 3 MB clientInfo (one long name) or 3 MB of capabilities (1,000 keys of 3 KB). */
function floodParams(i: number): object {
  if (i % 2 === 0) {
    return {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'x'.repeat(PAYLOAD_BYTES), version: '1' },
    };
  }
  const experimental: Record<string, string> = {};
  for (let k = 0; k < 1000; k++) experimental[`key-${k}`] = 'v'.repeat(PAYLOAD_BYTES / 1000);
  return {
    protocolVersion: '2025-11-25',
    capabilities: { experimental },
    clientInfo: { name: 'flood', version: '1' },
  };
}

describe('initialize flood with 3 MB of clientInfo or capabilities', () => {
  let gateway: HttpGatewayChild;

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start(GATEWAY_ENV);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
  }, 30_000);

  it(`refuses ${FLOOD} of them naming limits.session_metadata_bytes, keeps none, and stays up`, async () => {
    const bodies = [0, 1].map((variant) => initializeBody('ID', floodParams(variant)));
    const stderrBefore = gateway.stderr.length;
    const rss = new RssSampler(gateway.child.pid!);
    const answers: McpPostAnswer[] = [];
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: FLOOD_CONCURRENCY }, async () => {
        while (next < FLOOD) {
          const i = next++;
          answers[i] = await postMcp(gateway.baseUrl, bodies[i % 2].replace('"ID"', String(i)));
        }
      }),
    );
    await delay(500);
    const memory = rss.stop();
    process.stdout.write(
      `${FLOOD} x 3 MB initialize in ${Date.now() - started} ms: gateway RSS ${mib(memory.before)} -> peak ${mib(memory.peak)} (+${mib(memory.peakGrowth)}), after ${mib(memory.after)}\n`,
    );

    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.sessionId).toBeNull();
      const { id, error } = errorOf(answer.text);
      expect(id).toBe(i);
      expect(error).toMatchObject({
        code: -32602,
        message: expect.stringContaining(`limits.session_metadata_bytes (${METADATA_LIMIT})`),
        data: { limit: 'limits.session_metadata_bytes', max: METADATA_LIMIT, retryable: false },
      });
    }
    expect(memory.peakGrowth).toBeLessThan(RSS_BOUND);
    expect(gateway.child.exitCode).toBeNull();
    // Nothing of the payloads was kept or logged.
    expect(await activeSessions(gateway.baseUrl, 'streamable-http')).toBe(0);
    expect(await refusals(gateway.baseUrl, 'session_metadata_bytes')).toBe(FLOOD);
    const logged = gateway.stderr.slice(stderrBefore);
    expect(logged.length).toBeLessThan(256 * 1024);
    expect(logged).not.toContain('x'.repeat(100));

    // A normal client is served as before.
    const normal = await connectSdkClient({ kind: 'streamable-http', baseUrl: gateway.baseUrl });
    try {
      await expect(normal.client.ping()).resolves.toEqual({});
    } finally {
      await normal.dispose();
    }
  }, 60_000);

  it('stores metadata up to the limit, and logs clientInfo cut to limits.logged_client_info_bytes', async () => {
    const name = 'n'.repeat(4000);
    const answer = await postMcp(
      gateway.baseUrl,
      initializeBody('long-name', { ...smallParams(), clientInfo: { name, version: '2.0' } }),
    );
    expect(answer.status).toBe(200);
    expect(answer.sessionId).not.toBeNull();
    expect(JSON.parse(answer.text)).toMatchObject({ id: 'long-name', result: {} });
    let line: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !line; i++) {
      await delay(100);
      line = logLines(gateway.stderr).find(
        (l) => l.msg === 'session initialized' && l.sessionId === answer.sessionId,
      );
    }
    const full = JSON.stringify({ name, version: '2.0' });
    expect(line).toMatchObject({
      client: full.slice(0, LOGGED_CLIENT_INFO),
      clientInfoChars: full.length,
    });
    expect(gateway.stderr).not.toContain('n'.repeat(LOGGED_CLIENT_INFO));
    await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': answer.sessionId! },
    });
  });
});

describe('sessions per client and in total', () => {
  let gateway: HttpGatewayChild;
  const as = (client: string) => ({ 'x-mcp-client-id': client });
  const open = (client: string, id: number | string = `init-${client}`) =>
    postMcp(gateway.baseUrl, initializeBody(id, smallParams(client)), as(client));
  const close = async (sessionId: string | null) => {
    const res = await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId! },
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      ...GATEWAY_ENV,
      MCP_SERVER_LIMITS_SESSIONS_PER_CLIENT: '2',
      MCP_SERVER_LIMITS_SESSIONS_TOTAL: '4',
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
  }, 30_000);

  it('refuses past the caps with 429 / 503 naming the limit, and a DELETE or a closed stream frees a slot', async () => {
    const a1 = await open('alpha');
    const a2 = await open('alpha');
    expect([a1.status, a2.status]).toEqual([200, 200]);

    // A third for alpha: 429, the initialize's id echoed, no session.
    const a3 = await open('alpha', 33);
    expect(a3.status).toBe(429);
    expect(a3.sessionId).toBeNull();
    expect(errorOf(a3.text)).toEqual({
      jsonrpc: '2.0',
      id: 33,
      error: {
        code: -32600,
        message: 'Another session for this client exceeds limits.sessions_per_client (2)',
        data: { limit: 'limits.sessions_per_client', max: 2, retryable: true, http_status: 429 },
      },
    });
    // The legacy HTTP+SSE transport counts alike.
    const legacyA = await openSse(`${gateway.baseUrl}/sse`, as('alpha'));
    await legacyA.ended;
    expect(legacyA.status).toBe(429);
    expect(errorOf(legacyA.text).error.data.limit).toBe('limits.sessions_per_client');

    // After a DELETE, alpha may open one again.
    await close(a1.sessionId);
    const a4 = await open('alpha');
    expect(a4.status).toBe(200);

    // beta fills the gateway (alpha 2 + beta 2); gamma is then refused with 503.
    const b1 = await open('beta');
    const b2 = await open('beta');
    expect([b1.status, b2.status]).toEqual([200, 200]);
    const g1 = await open('gamma', 'g');
    expect(g1.status).toBe(503);
    expect(errorOf(g1.text)).toEqual({
      jsonrpc: '2.0',
      id: 'g',
      error: {
        code: -32600,
        message: 'Another session on this gateway exceeds limits.sessions_total (4)',
        data: { limit: 'limits.sessions_total', max: 4, retryable: true, http_status: 503 },
      },
    });
    const legacyG = await openSse(`${gateway.baseUrl}/sse`, as('gamma'));
    await legacyG.ended;
    expect(legacyG.status).toBe(503);

    // A legacy session holds a slot for as long as its stream is open.
    await close(b2.sessionId);
    const stream = await openSse(`${gateway.baseUrl}/sse`, as('gamma'));
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'endpoint');
    expect((await open('gamma')).status).toBe(503);
    await stream.abort();
    let reopened: McpPostAnswer | undefined;
    for (let i = 0; i < 50 && reopened?.status !== 200; i++) {
      await delay(50);
      reopened = await open('gamma');
    }
    expect(reopened?.status).toBe(200);

    expect(await refusals(gateway.baseUrl, 'sessions_per_client')).toBe(2);
    expect(await refusals(gateway.baseUrl, 'sessions_total')).toBeGreaterThanOrEqual(3);
    expect(await activeSessions(gateway.baseUrl, 'streamable-http')).toBe(4);
    expect(await activeSessions(gateway.baseUrl, 'legacy-sse')).toBe(0);
    expect(gateway.child.exitCode).toBeNull();
    for (const answer of [a2, a4, b1, reopened!]) await close(answer.sessionId);
    expect(await activeSessions(gateway.baseUrl, 'streamable-http')).toBe(0);
  }, 30_000);
});

describe('an expired session frees its slot', () => {
  it('lets the client open again once its idle session expired', async () => {
    const gateway = await startHttpGateway({ config: { limits: { sessions_per_client: 1 } } });
    try {
      const first = await postMcp(gateway.baseUrl, initializeBody(1, smallParams()));
      expect(first.status).toBe(200);
      expect((await postMcp(gateway.baseUrl, initializeBody(2, smallParams()))).status).toBe(429);
      expect(gateway.app.get(SessionRegistry).expireIdle(0)).toBe(1);
      const again = await postMcp(gateway.baseUrl, initializeBody(3, smallParams()));
      expect(again.status).toBe(200);
      expect(again.sessionId).not.toBe(first.sessionId);
    } finally {
      await gateway.close();
    }
  });
});

describe("sessions counted by the API key's client", () => {
  const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

  it('caps the client the key belongs to, whatever X-MCP-Client-ID claims', async () => {
    const gateway = await startHttpGateway({
      config: {
        auth: {
          mode: 'api_key',
          api_keys: [`acme:${sha256('key-a')}`, `other:${sha256('key-o')}`],
        },
        limits: { sessions_per_client: 1 },
      },
    });
    const withKey = (key: string, claimed: string) => ({
      authorization: `Bearer ${key}`,
      'x-mcp-client-id': claimed,
    });
    try {
      const first = await postMcp(
        gateway.baseUrl,
        initializeBody(1, smallParams()),
        withKey('key-a', 'first-name'),
      );
      expect(first.status).toBe(200);
      const renamed = await postMcp(
        gateway.baseUrl,
        initializeBody(2, smallParams()),
        withKey('key-a', 'another-name'),
      );
      expect(renamed.status).toBe(429);
      expect(errorOf(renamed.text).error.data.limit).toBe('limits.sessions_per_client');
      const other = await postMcp(
        gateway.baseUrl,
        initializeBody(3, smallParams()),
        withKey('key-o', 'another-name'),
      );
      expect(other.status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});

describe('session metadata over stdio', () => {
  afterAll(() => killAllGateways(), 30_000);

  it('refuses an initialize over the limit before storing anything, then accepts a normal one', async () => {
    const gateway = await spawnTracked({ env: { MCP_SERVER_LEDGER_ENABLED: 'false' } });
    const refused = await gateway.request(
      'initialize',
      { ...smallParams(), capabilities: { experimental: { blob: 'y'.repeat(100_000) } } },
      'big',
    );
    expect(refused).toMatchObject({
      id: 'big',
      error: {
        code: -32602,
        data: { limit: 'limits.session_metadata_bytes', max: METADATA_LIMIT },
      },
    });
    const accepted = await gateway.request('initialize', smallParams(), 'small');
    expect(accepted).toMatchObject({ id: 'small', result: { protocolVersion: '2025-11-25' } });
    expect(await gateway.request('ping', undefined, 'p')).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      result: {},
    });
    expect(gateway.stderr).not.toContain('y'.repeat(100));
    await gateway.endInput();
  }, 30_000);
});
