/**
 * Issue #21, finding 7: nothing capped the SSE streams a client could hold
 * open. GET /mcp, GET /mcp/sse and the legacy GET /sse now count against
 * limits.sse_streams_per_client and limits.sse_streams_total, against a real
 * gateway process; a closed stream frees its slot.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { HttpGatewayChild } from '../support/http-child';
import { McpHttpSession } from '../support/mcp-http-session';
import { openSse, SseConnection } from '../support/sse-client';
import { testGatewayEnv } from '../support/test-defaults';
import { activeSessions, errorOf, refusals } from './support/limit-refusals';

describe('SSE streams per client and in total', () => {
  let gateway: HttpGatewayChild;
  const opened: SseConnection[] = [];

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      ...testGatewayEnv(),
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LEDGER_ENABLED: 'false',
      MCP_SERVER_LIMITS_SSE_STREAMS_PER_CLIENT: '2',
      MCP_SERVER_LIMITS_SSE_STREAMS_TOTAL: '3',
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(opened.map((stream) => stream.abort()));
    await gateway?.stop();
  }, 30_000);

  const as = (client: string) => ({ 'x-mcp-client-id': client });

  /** A GET stream on `path` for the session; kept for cleanup. */
  async function stream(path: string, session: McpHttpSession): Promise<SseConnection> {
    const connection = await session.openStream(path);
    opened.push(connection);
    return connection;
  }

  async function legacy(client: string): Promise<SseConnection> {
    const connection = await openSse(`${gateway.baseUrl}/sse`, as(client));
    opened.push(connection);
    return connection;
  }

  it('refuses a third stream of one client (429) and a fourth in all (503), each naming its limit', async () => {
    const sessions = await Promise.all(
      [1, 2, 3].map(() => McpHttpSession.open(gateway.baseUrl, as('alpha'))),
    );

    const first = await stream('/mcp', sessions[0]);
    const second = await stream(`/mcp/sse?sessionId=${sessions[1].sessionId}`, sessions[1]);
    expect([first.status, second.status]).toEqual([200, 200]);

    const third = await stream('/mcp', sessions[2]);
    await third.ended;
    expect(third.status).toBe(429);
    expect(errorOf(third.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Another SSE stream for this client exceeds limits.sse_streams_per_client (2)',
        data: { limit: 'limits.sse_streams_per_client', max: 2, retryable: true, http_status: 429 },
      },
    });

    // beta's legacy stream is the third in all; gamma's would be a fourth.
    const beta = await legacy('beta');
    expect(beta.status).toBe(200);
    await beta.next((e) => e.event === 'endpoint');
    const sessionsBefore = await activeSessions(gateway.baseUrl, 'legacy-sse');
    const gamma = await legacy('gamma');
    await gamma.ended;
    expect(gamma.status).toBe(503);
    expect(errorOf(gamma.text).error).toMatchObject({
      message: 'Another SSE stream on this gateway exceeds limits.sse_streams_total (3)',
      data: { limit: 'limits.sse_streams_total', max: 3, http_status: 503 },
    });
    // The refused legacy stream left no session behind.
    expect(await activeSessions(gateway.baseUrl, 'legacy-sse')).toBe(sessionsBefore);

    // Closing alpha's first stream frees its slot: the third session's stream now opens.
    await first.abort();
    let reopened: SseConnection | undefined;
    for (let i = 0; i < 50; i++) {
      reopened = await stream('/mcp', sessions[2]);
      if (reopened.status === 200) break;
      await reopened.ended;
      await delay(50);
    }
    expect(reopened?.status).toBe(200);
    // And a closed legacy stream frees a slot of the total.
    await beta.abort();
    let gammaAgain: SseConnection | undefined;
    for (let i = 0; i < 50; i++) {
      gammaAgain = await legacy('gamma');
      if (gammaAgain.status === 200) break;
      await gammaAgain.ended;
      await delay(50);
    }
    expect(gammaAgain?.status).toBe(200);

    expect(await refusals(gateway.baseUrl, 'sse_streams_per_client')).toBeGreaterThanOrEqual(1);
    expect(await refusals(gateway.baseUrl, 'sse_streams_total')).toBeGreaterThanOrEqual(1);
    // The gateway still serves requests on the sessions meanwhile.
    expect(await sessions[0].request('p', 'ping', {})).toMatchObject({ id: 'p', result: {} });
    expect(gateway.child.exitCode).toBeNull();
    await Promise.all(sessions.map((session) => session.close()));
  }, 30_000);
});
