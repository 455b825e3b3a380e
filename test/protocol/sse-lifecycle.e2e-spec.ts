/**
 * SSE streams must not leak: hundreds of client-aborted connections leave no
 * open stream, no session, no close listener and no keep-alive timer behind.
 * Idle sessions expire and are then unknown (404).
 */
import request from 'supertest';
import { SessionRegistry } from '../../src/session/session.registry';
import { SseHub } from '../../src/transport/http/sse.hub';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { CLIENT_INFO, waitUntil } from '../support/rpc-adapter';
import { openSse } from '../support/sse-client';

const CYCLES = 200;

function timeoutCount(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

async function openSession(gateway: HttpGatewayHandle): Promise<string> {
  const res = await request(gateway.baseUrl)
    .post('/mcp')
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream')
    .send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    );
  expect(res.status).toBe(200);
  return res.headers['mcp-session-id'];
}

const ping = (gateway: HttpGatewayHandle, sessionId: string) =>
  request(gateway.baseUrl)
    .post('/mcp')
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json')
    .set('Mcp-Session-Id', sessionId)
    .send('{"jsonrpc":"2.0","id":"p","method":"ping"}');

describe('SSE connect/disconnect cycles', () => {
  let gateway: HttpGatewayHandle;
  let hub: SseHub;
  let sessions: SessionRegistry;

  beforeAll(async () => {
    gateway = await startHttpGateway({ fixtures: true });
    hub = gateway.app.get(SseHub);
    sessions = gateway.app.get(SessionRegistry);
  });

  afterAll(async () => {
    await gateway.close();
  });

  const drained = () =>
    waitUntil(
      () => hub.openCount === 0,
      5_000,
      () => `${hub.openCount} SSE streams still open`,
    );

  it(`${CYCLES} aborted GET /mcp streams and ${CYCLES} aborted legacy GET /sse streams leak nothing`, async () => {
    const sessionId = await openSession(gateway);
    const session = sessions.get(sessionId);
    if (!session) throw new Error('session missing');
    const url = `${gateway.baseUrl}/mcp`;
    const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-06-18' };

    const baseline = {
      sessions: sessions.size,
      listeners: session.closeListenerCount,
      timeouts: timeoutCount(),
    };
    expect(hub.openCount).toBe(0);

    for (let i = 0; i < CYCLES; i++) {
      const sse = await openSse(url, headers);
      expect(sse.status).toBe(200);
      if (i === 0) {
        // While open, each of the counters below does see the stream.
        expect(hub.openCount).toBe(1);
        expect(session.closeListenerCount).toBe(baseline.listeners + 1);
        expect(session.hasStandaloneStream()).toBe(true);
        // Process-wide timer counts move with unrelated sockets; the hub names its own.
        expect(hub.keepAliveTimers).toBe(1);
      }
      await sse.abort();
      await drained();
    }
    expect(session.hasStandaloneStream()).toBe(false);
    expect(session.closeListenerCount).toBe(baseline.listeners);
    expect(hub.keepAliveTimers).toBe(0);

    for (let i = 0; i < CYCLES; i++) {
      const sse = await openSse(`${gateway.baseUrl}/sse`);
      expect(sse.status).toBe(200);
      await sse.next((e) => e.event === 'endpoint');
      if (i === 0) {
        expect(hub.openCount).toBe(1);
        expect(sessions.size).toBe(baseline.sessions + 1);
      }
      await sse.abort();
      await drained();
    }
    // Legacy sessions live exactly as long as their stream.
    await waitUntil(
      () => sessions.size === baseline.sessions,
      2_000,
      () => `${sessions.size} sessions`,
    );

    expect(hub.openCount).toBe(0);
    expect(sessions.size).toBe(baseline.sessions);
    expect(session.closeListenerCount).toBe(baseline.listeners);
    // Every keep-alive interval was cleared (the hub's own count is 0 above). Process-wide, a
    // socket's idle timer may still be settling a moment after the last abort; a leaked
    // interval never goes away, so waiting for the count to come back still catches one.
    await waitUntil(
      () => timeoutCount() <= baseline.timeouts,
      5_000,
      () => `${timeoutCount()} timers against ${baseline.timeouts} at the start`,
    );
    // The streamable session survived all of it and still serves.
    const res = await ping(gateway, sessionId);
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    // And it can open its stream again.
    const again = await openSse(url, headers);
    expect(again.status).toBe(200);
    await again.abort();
    await drained();
  });

  it('a server-side session end closes its open stream and frees everything', async () => {
    const sessionId = await openSession(gateway);
    const session = sessions.get(sessionId);
    const before = sessions.size;
    const sse = await openSse(`${gateway.baseUrl}/mcp`, { 'Mcp-Session-Id': sessionId });
    expect(hub.openCount).toBe(1);
    const deleted = await request(gateway.baseUrl).delete('/mcp').set('Mcp-Session-Id', sessionId);
    expect(deleted.status).toBe(200);
    await sse.ended;
    await drained();
    expect(sessions.size).toBe(before - 1);
    expect(session?.closed).toBe(true);
    expect(session?.closeListenerCount).toBe(0);
  });
});

describe('idle session expiry', () => {
  const TTL_SECONDS = 1;
  let gateway: HttpGatewayHandle;
  let sessions: SessionRegistry;

  beforeAll(async () => {
    gateway = await startHttpGateway({
      fixtures: true,
      config: { sessions: { idle_ttl_seconds: TTL_SECONDS } },
    });
    sessions = gateway.app.get(SessionRegistry);
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('expires idle sessions (404 afterwards) but not one with an open stream', async () => {
    const ttlMs = TTL_SECONDS * 1000;
    const idle = await openSession(gateway);
    const streaming = await openSession(gateway);
    const sse = await openSse(`${gateway.baseUrl}/mcp`, { 'Mcp-Session-Id': streaming });
    try {
      expect(sse.status).toBe(200);
      // As if the TTL had passed: only the idle one goes.
      expect(sessions.expireIdle(ttlMs, Date.now() + ttlMs)).toBe(1);
      expect(sessions.get(idle)).toBeUndefined();
      expect(sessions.get(streaming)).toBeDefined();

      const gone = await ping(gateway, idle);
      expect(gone.status).toBe(404);
      expect(JSON.parse(gone.text)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { message: expect.stringContaining(`Session not found: ${idle}`) },
      });
      const alive = await ping(gateway, streaming);
      expect(alive.status).toBe(200);
    } finally {
      await sse.abort();
    }
    await waitUntil(() => gateway.app.get(SseHub).openCount === 0);
    // Once its stream is gone it is idle like any other.
    expect(sessions.expireIdle(ttlMs, Date.now() + ttlMs)).toBe(1);
    expect((await ping(gateway, streaming)).status).toBe(404);
  });

  it('the background sweeper expires a session after the TTL on its own', async () => {
    const id = await openSession(gateway);
    expect(sessions.get(id)).toBeDefined();
    await waitUntil(
      () => sessions.get(id) === undefined,
      4_000,
      () => 'session not swept',
    );
    expect((await ping(gateway, id)).status).toBe(404);
  });
});
