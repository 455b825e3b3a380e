import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { HttpGatewayChild } from '../support/http-child';
import { LogLine, logLines, requestLine, waitForLogLine } from '../support/log-lines';
import { McpHttpSession } from '../support/mcp-http-session';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { readLedgerRows, waitForLedgerRows } from '../support/sqlite-ledger';
import { tempLedgerPath, testGatewayEnv } from '../support/test-defaults';

/**
 * One id finds a request everywhere: every log line written while serving
 * it (its `mcp request` line, the governance decision deep inside), its
 * ledger row and its error answer carry the W3C trace id its caller sent
 * (HTTP `traceparent` header, or `params._meta.traceparent`), or a fresh
 * one when it sent none. Real gateway processes, the official SDK client.
 */

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const META_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const META_TRACEPARENT = `00-${META_TRACE_ID}-b7ad6b7169203331-01`;
const W3C_TRACE_ID = /^[0-9a-f]{32}$/;

interface LedgerRow {
  request_id: string;
  trace_id: string;
  target: string;
  outcome: string;
}

/** The id the SDK gave the last tools/call it sent for `tool`. */
function sentId(handle: SdkClientHandle, tool: string): string | number {
  const sent = handle.wire.sent.filter(
    (m) =>
      'method' in m &&
      m.method === 'tools/call' &&
      (m.params as { name?: unknown } | undefined)?.name === tool,
  );
  const last = sent[sent.length - 1];
  const id = last && 'id' in last ? last.id : undefined;
  if (id === undefined) throw new Error(`no tools/call of ${tool} was sent`);
  return id;
}

/** The error an SDK call was answered with. */
async function rpcError(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

/** Every line written while serving the request: all carry its request id in its session. */
function linesOf(stderr: string, requestId: string, sessionId: string): LogLine[] {
  return logLines(stderr).filter(
    (line) => line.requestId === requestId && line.sessionId === sessionId,
  );
}

describe('log correlation over Streamable HTTP', () => {
  const ledgerPath = tempLedgerPath();
  let gateway: HttpGatewayChild;
  let traced: SdkClientHandle;
  let untraced: SdkClientHandle;
  const stderr = () => gateway.stderr;

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      ...testGatewayEnv(),
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LEDGER_SQLITE_PATH: ledgerPath,
      // Allowed governance decisions and request arguments are logged at debug.
      MCP_SERVER_LOGGING_LEVEL: 'debug',
    });
    traced = await connectSdkClient({
      kind: 'streamable-http',
      baseUrl: gateway.baseUrl,
      headers: { 'x-mcp-client-id': 'corr-traced', traceparent: TRACEPARENT },
    });
    untraced = await connectSdkClient({
      kind: 'streamable-http',
      baseUrl: gateway.baseUrl,
      headers: { 'x-mcp-client-id': 'corr-untraced' },
    });
  }, 120_000);

  afterAll(async () => {
    await traced?.dispose();
    await untraced?.dispose();
    await gateway?.stop();
  });

  it('gives every line of a request, and its ledger row, the trace id of its traceparent header', async () => {
    await traced.client.callTool({ name: 'fx_add', arguments: { a: 1, b: 2 } });
    const id = String(sentId(traced, 'fx_add'));
    const sessionId = traced.serverSessionId!;
    const line = await requestLine(stderr, id, sessionId);
    expect(line).toMatchObject({
      level: 30,
      context: 'McpRequest',
      method: 'tools/call',
      target: 'fx_add',
      clientId: 'corr-traced',
      sessionId,
      requestId: id,
      traceId: TRACE_ID,
      outcome: 'success',
      params: '{"arguments":{"a":1,"b":2}}',
    });
    expect(typeof line.durationMs).toBe('number');
    expect(line.spanId).toMatch(/^[0-9a-f]{16}$/);

    const lines = linesOf(gateway.stderr, id, sessionId);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['governance decision', 'mcp request']),
    );
    for (const each of lines)
      expect(each).toMatchObject({ traceId: TRACE_ID, spanId: line.spanId });

    const rows = await waitForLedgerRows<LedgerRow>(ledgerPath, 'corr-traced', 1);
    expect(rows.find((row) => row.request_id === `n:${id}`)).toMatchObject({
      trace_id: TRACE_ID,
      target: 'fx_add',
      outcome: 'success',
    });
  });

  it('answers an error with the same trace id in error.data, and logs it at info', async () => {
    const error = await rpcError(traced.client.callTool({ name: 'fx_missing', arguments: {} }));
    expect((error.data as { traceId?: unknown }).traceId).toBe(TRACE_ID);
    const id = String(sentId(traced, 'fx_missing'));
    const line = await requestLine(stderr, id, traced.serverSessionId);
    expect(line).toMatchObject({
      level: 30,
      target: 'fx_missing',
      traceId: TRACE_ID,
      outcome: 'not_found',
      errorCode: error.code,
    });
    const rows = await waitForLedgerRows<LedgerRow>(ledgerPath, 'corr-traced', 2);
    expect(rows.find((row) => row.request_id === `n:${id}`)?.trace_id).toBe(TRACE_ID);
  });

  it('logs a request refused for its arguments, with them redacted like the ledger', async () => {
    const error = await rpcError(
      traced.client.callTool({ name: 'fx_add', arguments: { a: 1, b: 2, password: 'hunter2' } }),
    );
    expect(error.code).toBe(-32602);
    const id = String(sentId(traced, 'fx_add'));
    const line = await requestLine(stderr, id, traced.serverSessionId);
    expect(line).toMatchObject({ level: 30, outcome: 'protocol_error', errorCode: -32602 });
    expect(line.params).toContain('"password":"[REDACTED]"');
    expect(JSON.stringify(line)).not.toContain('hunter2');
  });

  it("prefers a message's own _meta.traceparent to the header", async () => {
    await traced.client.callTool({
      name: 'fx_add',
      arguments: { a: 2, b: 2 },
      _meta: { traceparent: META_TRACEPARENT },
    });
    const line = await requestLine(
      stderr,
      String(sentId(traced, 'fx_add')),
      traced.serverSessionId,
    );
    expect(line.traceId).toBe(META_TRACE_ID);
  });

  it('makes a fresh W3C trace id when the request brings none: the same in log, ledger and error', async () => {
    const error = await rpcError(untraced.client.callTool({ name: 'fx_unknown', arguments: {} }));
    const traceId = (error.data as { traceId?: unknown }).traceId;
    expect(traceId).toMatch(W3C_TRACE_ID);
    const id = String(sentId(untraced, 'fx_unknown'));
    const line = await requestLine(stderr, id, untraced.serverSessionId);
    expect(line.traceId).toBe(traceId);
    const rows = await waitForLedgerRows<LedgerRow>(ledgerPath, 'corr-untraced', 1);
    expect(rows.find((row) => row.request_id === `n:${id}`)?.trace_id).toBe(traceId);

    // Another request, another trace.
    await untraced.client.callTool({ name: 'fx_add', arguments: { a: 1, b: 1 } });
    const next = await requestLine(
      stderr,
      String(sentId(untraced, 'fx_add')),
      untraced.serverSessionId,
    );
    expect(next.traceId).toMatch(W3C_TRACE_ID);
    expect(next.traceId).not.toBe(traceId);
  });

  describe('ignores a traceparent it cannot use, and the call still succeeds', () => {
    let session: McpHttpSession;

    beforeAll(async () => {
      session = await McpHttpSession.open(gateway.baseUrl, { 'x-mcp-client-id': 'corr-hostile' });
    });

    afterAll(() => session?.close());

    const cases: Array<{ title: string; headers?: Record<string, string>; meta?: unknown }> = [
      { title: 'an 8 KiB header', headers: { traceparent: `00-${TRACE_ID}-${'a'.repeat(8192)}` } },
      {
        title: 'an all-zero trace id',
        headers: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` },
      },
      {
        title: 'an all-zero span id',
        headers: { traceparent: `00-${TRACE_ID}-${'0'.repeat(16)}-01` },
      },
      { title: '_meta.traceparent as an object', meta: { traceparent: { traceId: TRACE_ID } } },
      {
        title: '_meta.traceparent of 8 KiB',
        meta: { traceparent: `00-${TRACE_ID}-${'b'.repeat(8192)}` },
      },
      { title: 'a _meta.traceId that is not 32 hex digits', meta: { traceId: 'not-a-trace' } },
    ];

    it.each(cases)('$title', async ({ title, headers, meta }) => {
      const id = `hostile ${title}`;
      const reply = await fetch(`${gateway.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-mcp-client-id': 'corr-hostile',
          'mcp-session-id': session.sessionId,
          'mcp-protocol-version': '2025-11-25',
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'fx_add', arguments: { a: 1, b: 2 }, ...(meta ? { _meta: meta } : {}) },
        }),
      });
      expect(reply.status).toBe(200);
      expect(await reply.text()).toContain('"sum":3');
      const line = await requestLine(stderr, id, session.sessionId);
      expect(line.outcome).toBe('success');
      expect(line.traceId).toMatch(W3C_TRACE_ID);
      expect(line.traceId).not.toBe(TRACE_ID);
      expect(line.traceId).not.toMatch(/^0+$/);
    });
  });

  describe('a stateless (2026-07-28) request', () => {
    const MODERN = '2026-07-28';
    const post = (id: string, meta: Record<string, unknown>) =>
      fetch(`${gateway.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': 'fx_add',
          'x-mcp-client-id': 'corr-stateless',
          traceparent: TRACEPARENT,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'fx_add',
            arguments: { a: 1, b: 2 },
            _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, ...meta },
          },
        }),
      });

    it('carries the traceparent header like a session request', async () => {
      const reply = await post('stateless-ok', {
        'io.modelcontextprotocol/clientCapabilities': {},
      });
      expect(reply.status).toBe(200);
      expect(await reply.text()).toContain('"sum":3');
      const line = await requestLine(stderr, 'stateless-ok');
      expect(line).toMatchObject({ clientId: 'corr-stateless', traceId: TRACE_ID });
    });

    it('answers a refusal made before dispatch with its trace id, and logs it', async () => {
      const reply = await post('stateless-refused', {});
      expect(reply.status).toBe(400);
      const body = (await reply.json()) as { error: { code: number; data: { traceId?: string } } };
      expect(body.error).toMatchObject({ code: -32602, data: { traceId: TRACE_ID } });
      const line = await requestLine(stderr, 'stateless-refused');
      expect(line).toMatchObject({ level: 30, traceId: TRACE_ID, errorCode: -32602 });
    });
  });

  it('logs and traces a parse error the transport refuses before any session', async () => {
    const reply = await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        traceparent: TRACEPARENT,
      },
      body: '{"jsonrpc":"2.0","id":"broken",',
    });
    expect(reply.status).toBe(400);
    const body = (await reply.json()) as { error: { code: number; data: { traceId?: string } } };
    expect(body.error).toMatchObject({ code: -32700, data: { traceId: TRACE_ID } });
    const line = await waitForLogLine(
      stderr,
      (l) => l.msg === 'mcp request' && l.errorCode === -32700 && l.traceId === TRACE_ID,
      'for the parse error',
    );
    expect(line).toMatchObject({ level: 30, outcome: 'protocol_error' });
  });

  it('logs a refused HTTP request (an unknown session) with the caller trace id', async () => {
    const reply = await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'no-such-session',
        traceparent: TRACEPARENT,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(reply.status).toBe(404);
    await reply.arrayBuffer();
    const line = await waitForLogLine(
      stderr,
      (l) => l.msg === 'http request refused' && l.status === 404 && l.traceId === TRACE_ID,
      'for the unknown session',
    );
    expect(line).toMatchObject({ level: 30, method: 'POST', path: '/mcp' });
  });
});

describe('log correlation over stdio', () => {
  let handle: SdkClientHandle;
  const ledgerPath = tempLedgerPath();
  const stderr = () => handle.stdio!.stderr();

  beforeAll(async () => {
    handle = await connectSdkClient({
      kind: 'stdio',
      fixtures: true,
      env: {
        MCP_CLIENT_ID: 'corr-stdio',
        MCP_SERVER_LEDGER_SQLITE_PATH: ledgerPath,
        MCP_SERVER_LOGGING_LEVEL: 'debug',
      },
    });
  }, 120_000);

  afterAll(() => handle?.dispose());

  it('gives every line of a request, its ledger row and its error the trace id of _meta.traceparent', async () => {
    await handle.client.callTool({
      name: 'fx_add',
      arguments: { a: 1, b: 2 },
      _meta: { traceparent: META_TRACEPARENT },
    });
    const id = String(sentId(handle, 'fx_add'));
    const line = await requestLine(stderr, id);
    expect(line).toMatchObject({
      method: 'tools/call',
      target: 'fx_add',
      clientId: 'corr-stdio',
      traceId: META_TRACE_ID,
      outcome: 'success',
    });
    const lines = linesOf(stderr(), id, line.sessionId as string);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['governance decision', 'mcp request']),
    );
    for (const each of lines) expect(each.traceId).toBe(META_TRACE_ID);

    const error = await rpcError(
      handle.client.callTool({
        name: 'fx_nowhere',
        arguments: {},
        _meta: { traceparent: META_TRACEPARENT },
      }),
    );
    expect((error.data as { traceId?: unknown }).traceId).toBe(META_TRACE_ID);
    const rows = await waitForLedgerRows<LedgerRow>(ledgerPath, 'corr-stdio', 2);
    expect(rows.map((row) => [row.target, row.trace_id])).toEqual([
      ['fx_add', META_TRACE_ID],
      ['fx_nowhere', META_TRACE_ID],
    ]);
  });

  it('makes a fresh W3C trace id without a traceparent: the same in log, ledger and error', async () => {
    const error = await rpcError(handle.client.callTool({ name: 'fx_absent', arguments: {} }));
    const traceId = (error.data as { traceId?: unknown }).traceId;
    expect(traceId).toMatch(W3C_TRACE_ID);
    expect(traceId).not.toBe(META_TRACE_ID);
    const line = await requestLine(stderr, String(sentId(handle, 'fx_absent')));
    expect(line.traceId).toBe(traceId);
    const rows = readLedgerRows<LedgerRow>(ledgerPath, 'corr-stdio');
    expect(rows.find((row) => row.target === 'fx_absent')?.trace_id).toBe(traceId);
  });
});

describe('request log sampling', () => {
  let handle: SdkClientHandle;
  const stderr = () => handle.stdio!.stderr();

  beforeAll(async () => {
    handle = await connectSdkClient({
      kind: 'stdio',
      fixtures: true,
      env: {
        MCP_CLIENT_ID: 'corr-sampled',
        MCP_SERVER_LOGGING_REQUEST_LOG_SUCCESS_SAMPLE_RATIO: '0',
      },
    });
  }, 120_000);

  afterAll(() => handle?.dispose());

  it('with a ratio of 0 leaves out successful requests but never a failed one', async () => {
    await handle.client.callTool({ name: 'fx_add', arguments: { a: 1, b: 2 } });
    const succeeded = String(sentId(handle, 'fx_add'));
    await rpcError(handle.client.callTool({ name: 'fx_gone', arguments: {} }));
    // Lines are written in order: once the failure's line is there, the success's would be too.
    const failed = await requestLine(stderr, String(sentId(handle, 'fx_gone')));
    expect(failed).toMatchObject({ outcome: 'not_found', target: 'fx_gone' });
    const lines = logLines(stderr()).filter((line) => line.msg === 'mcp request');
    expect(lines.some((line) => line.requestId === succeeded)).toBe(false);
    expect(lines.every((line) => line.outcome !== 'success')).toBe(true);
  });
});
