import { HttpGatewayChild } from '../support/http-child';
import { LogLine, logLines, requestLine, waitForLogLine } from '../support/log-lines';
import { openSession, postMcp } from '../support/mcp-fetch';
import { McpHttpSession } from '../support/mcp-http-session';
import { openSse } from '../support/sse-client';
import { StdioGatewayProcess } from '../support/stdio-process';
import { testGatewayEnv } from '../support/test-defaults';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';

/**
 * Error answers made outside a method's own failure path carry their trace
 * id in `error.data.traceId` and have their `mcp request` line under it: a
 * stdio line over stdio.max_line_bytes, answers withheld by
 * limits.batch_max_response_bytes, a result JSON cannot carry, a listen
 * stream refused by limits.sse_streams_per_client. The id is the caller's
 * when it named one (traceparent header or `_meta.traceparent`), else a
 * fresh one; real gateway processes, raw frames.
 */

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const META_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const META_TRACEPARENT = `00-${META_TRACE_ID}-b7ad6b7169203331-01`;
const W3C_TRACE_ID = /^[0-9a-f]{32}$/;

// Room for the batch below (about 6 KB), not for a line twice as long.
const MAX_LINE_BYTES = 16 * 1024;
/** Three answers of a PAD-byte echo fit; the rest of a batch of BATCH_SIZE is withheld. */
const BATCH_MAX_RESPONSE_BYTES = 4096;
const PAD = 1000;
const BATCH_SIZE = 6;
const LIMIT_ENV = {
  MCP_SERVER_STDIO_MAX_LINE_BYTES: String(MAX_LINE_BYTES),
  MCP_SERVER_LIMITS_BATCH_MAX_RESPONSE_BYTES: String(BATCH_MAX_RESPONSE_BYTES),
};

interface Answer {
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: { traceId?: unknown } };
}

/** A batch of echoes, each large enough that the answers pass the limit; the last names its own trace. */
const cappedBatch = () =>
  Array.from({ length: BATCH_SIZE }, (_, i) => ({
    jsonrpc: '2.0',
    id: `cap-${i}`,
    method: 'fixture/echo',
    params: {
      pad: 'p'.repeat(PAD),
      ...(i === BATCH_SIZE - 1 ? { _meta: { traceparent: META_TRACEPARENT } } : {}),
    },
  }));

function traceIdOf(answer: Answer | Record<string, unknown>): string {
  const traceId = (answer as Answer).error?.data?.traceId;
  if (typeof traceId !== 'string')
    throw new Error(`no error.data.traceId: ${JSON.stringify(answer)}`);
  return traceId;
}

/** The `mcp request` lines written so far that pass `test`. */
function requestLines(stderr: string, test: (line: LogLine) => boolean): LogLine[] {
  return logLines(stderr).filter((line) => line.msg === 'mcp request' && test(line));
}

/**
 * The whole answers come first, then the withheld ones: each carries the
 * trace id its call ran under (`expected`, or the one of the call's own
 * success line), and has one -32600 request line with it.
 */
async function expectWithheldTraced(
  answers: Answer[],
  stderr: () => string,
  expected: (id: string) => string | undefined,
): Promise<void> {
  expect(answers.map((answer) => answer.id)).toEqual(cappedBatch().map((entry) => entry.id));
  const firstWithheld = answers.findIndex((answer) => answer.error !== undefined);
  expect(firstWithheld).toBeGreaterThan(0);
  const withheld = answers.slice(firstWithheld);
  expect(withheld.length).toBeGreaterThan(1);
  for (const answer of withheld) {
    const id = String(answer.id);
    expect(answer.error).toMatchObject({
      code: -32600,
      data: { limit: 'limits.batch_max_response_bytes' },
    });
    const traceId = traceIdOf(answer);
    expect(traceId).toMatch(W3C_TRACE_ID);
    const ran = await waitForLogLine(
      stderr,
      (line) => line.msg === 'mcp request' && line.requestId === id && line.outcome === 'success',
      `for the run of ${id}`,
    );
    expect(traceId).toBe(expected(id) ?? ran.traceId);
    const refused = await waitForLogLine(
      stderr,
      (line) => line.msg === 'mcp request' && line.requestId === id && line.errorCode === -32600,
      `for the withheld answer of ${id}`,
    );
    expect(refused).toMatchObject({ level: 30, traceId, outcome: 'protocol_error' });
    expect(
      requestLines(stderr(), (l) => l.requestId === id && l.errorCode === -32600),
    ).toHaveLength(1);
  }
  const last = withheld[withheld.length - 1];
  expect(traceIdOf(last)).toBe(META_TRACE_ID);
}

describe('error answers made outside a method, over stdio', () => {
  let gateway: StdioGatewayProcess;
  const stderr = () => gateway.stderr;

  beforeAll(async () => {
    gateway = await spawnTracked({
      fixtures: true,
      env: { MCP_CLIENT_ID: 'traces-stdio', ...LIMIT_ENV },
    });
    // 2025-03-26: the last revision with batches.
    await gateway.initialize('2025-03-26');
  }, 120_000);

  afterAll(() => killAllGateways(), 30_000);

  it('answers a line over stdio.max_line_bytes with a fresh trace id, and logs it under that id', async () => {
    gateway.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'huge',
        method: 'fixture/echo',
        params: { pad: 'x'.repeat(MAX_LINE_BYTES * 2) },
      }),
    );
    const answer = await gateway.waitFor(
      (m) => m.id === null && (m as unknown as Answer).error?.code === -32700,
    );
    const traceId = traceIdOf(answer);
    expect(traceId).toMatch(W3C_TRACE_ID);
    const line = await waitForLogLine(
      stderr,
      (l) => l.msg === 'mcp request' && l.traceId === traceId,
      'for the oversize line',
    );
    expect(line).toMatchObject({
      level: 30,
      clientId: 'traces-stdio',
      errorCode: -32700,
      outcome: 'protocol_error',
    });
    expect(requestLines(stderr(), (l) => l.traceId === traceId)).toHaveLength(1);
  });

  it('answers a result JSON cannot carry with the trace id of its request, logged at error', async () => {
    const traced = await gateway.request(
      'fixture/unserializable',
      { kind: 'bigint', _meta: { traceparent: META_TRACEPARENT } },
      'bad-traced',
    );
    expect(traced.error).toMatchObject({
      code: -32603,
      data: { retryable: false, traceId: META_TRACE_ID },
    });
    expect(await requestLine(stderr, 'bad-traced')).toMatchObject({
      level: 50,
      traceId: META_TRACE_ID,
      errorCode: -32603,
      outcome: 'internal_error',
    });

    const untraced = await gateway.request(
      'fixture/unserializable',
      { kind: 'cycle' },
      'bad-fresh',
    );
    const traceId = traceIdOf(untraced);
    expect(traceId).toMatch(W3C_TRACE_ID);
    expect(traceId).not.toBe(META_TRACE_ID);
    expect(await requestLine(stderr, 'bad-fresh')).toMatchObject({ traceId, errorCode: -32603 });
    expect(requestLines(stderr(), (l) => l.requestId === 'bad-fresh')).toHaveLength(1);
  });

  it('withholds answers past limits.batch_max_response_bytes, each with the trace id its call ran under', async () => {
    gateway.send(cappedBatch());
    const answers = (await gateway.waitFor((m) => Array.isArray(m))) as unknown as Answer[];
    // No traceparent over stdio but the last one's own: the others ran under fresh ids.
    await expectWithheldTraced(answers, stderr, (id) =>
      id === `cap-${BATCH_SIZE - 1}` ? META_TRACE_ID : undefined,
    );
  });
});

describe('error answers made outside a method, over Streamable HTTP', () => {
  let gateway: HttpGatewayChild;
  const stderr = () => gateway.stderr;

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      ...testGatewayEnv(),
      ...LIMIT_ENV,
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LIMITS_SSE_STREAMS_PER_CLIENT: '1',
    });
  }, 120_000);

  afterAll(() => gateway?.stop(), 30_000);

  it('withholds answers past limits.batch_max_response_bytes with the trace id of the traceparent header', async () => {
    const sessionId = await openSession(gateway.baseUrl, '2025-03-26');
    const answer = await postMcp(gateway.baseUrl, JSON.stringify(cappedBatch()), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-03-26',
      traceparent: TRACEPARENT,
    });
    expect(answer.status).toBe(200);
    // Every element shares the header's trace but the last, whose own _meta.traceparent wins.
    await expectWithheldTraced(JSON.parse(answer.text) as Answer[], stderr, (id) =>
      id === `cap-${BATCH_SIZE - 1}` ? META_TRACE_ID : TRACE_ID,
    );
    const withheldLines = requestLines(
      stderr(),
      (l) => l.sessionId === sessionId && l.errorCode === -32600,
    );
    expect(withheldLines.length).toBeGreaterThan(1);
  });

  it('answers a result JSON cannot carry with the trace id of the traceparent header', async () => {
    const session = await McpHttpSession.open(gateway.baseUrl, { traceparent: TRACEPARENT });
    try {
      const reply = await session.request('bad-http', 'fixture/unserializable', { kind: 'bigint' });
      expect(reply.error).toMatchObject({
        code: -32603,
        data: { retryable: false, traceId: TRACE_ID },
      });
      expect(await requestLine(stderr, 'bad-http', session.sessionId)).toMatchObject({
        level: 50,
        traceId: TRACE_ID,
        errorCode: -32603,
      });
    } finally {
      await session.close();
    }
  });

  it('answers a stateless listen stream refused by limits.sse_streams_per_client with its request trace id', async () => {
    const MODERN = '2026-07-28';
    const listen = (id: string, headers: Record<string, string>, meta: object) =>
      openSse(
        `${gateway.baseUrl}/mcp`,
        {
          'mcp-protocol-version': MODERN,
          'mcp-method': 'subscriptions/listen',
          'x-mcp-client-id': 'traces-listener',
          ...headers,
        },
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'subscriptions/listen',
          params: {
            notifications: { toolsListChanged: true },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': {},
              ...meta,
            },
          },
        }),
      );
    const held = await listen('listen-1', {}, {});
    try {
      expect(held.status).toBe(200);
      await held.next(() => true);
      // The message's own _meta.traceparent wins over the header, as for every request.
      const refused = await listen(
        'listen-2',
        { traceparent: TRACEPARENT },
        { traceparent: META_TRACEPARENT },
      );
      await refused.ended;
      expect(refused.status).toBe(429);
      const body = JSON.parse(refused.text) as Answer;
      expect(body.error).toMatchObject({
        code: -32600,
        data: { limit: 'limits.sse_streams_per_client', traceId: META_TRACE_ID },
      });
      expect(await requestLine(stderr, 'listen-2')).toMatchObject({
        traceId: META_TRACE_ID,
        errorCode: -32600,
        clientId: 'traces-listener',
      });
      const httpLine = await waitForLogLine(
        stderr,
        (l) => l.msg === 'http request refused' && l.status === 429 && l.requestId === 'listen-2',
        'for the refused stream',
      );
      expect(httpLine.traceId).toBe(META_TRACE_ID);
    } finally {
      await held.abort();
    }
  });
});
