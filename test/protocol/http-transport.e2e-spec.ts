/**
 * The HTTP surface around JSON-RPC: Streamable HTTP header rules, DNS-rebinding
 * defence, body limits, the standalone and seed SSE streams, the legacy
 * HTTP+SSE transport, and the health and metrics endpoints.
 */
import request from 'supertest';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { SseHub } from '../../src/transport/http/sse.hub';
import { CLIENT_INFO, Json, waitUntil } from '../support/rpc-adapter';
import { messageOf, openSse, SseConnection, SseEvent } from '../support/sse-client';

const JSON_TYPE = /^application\/json\b/;

const initializeBody = (protocolVersion = '2025-06-18') => ({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO },
});

function post(
  gateway: HttpGatewayHandle,
  body: unknown,
  headers: Record<string, string> = {},
  path = '/mcp',
) {
  const req = request(gateway.baseUrl)
    .post(path)
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream');
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** initialize + notifications/initialized; returns the session id. */
async function openSession(gateway: HttpGatewayHandle, version = '2025-06-18'): Promise<string> {
  const res = await post(gateway, initializeBody(version));
  expect(res.status).toBe(200);
  const sessionId = res.headers['mcp-session-id'];
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  const ack = await post(
    gateway,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': version },
  );
  expect(ack.status).toBe(202);
  return sessionId;
}

function expectHttpError(res: request.Response, status: number, message: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(JSON_TYPE);
  expect(JSON.parse(res.text)).toEqual({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: expect.any(Number),
      message: expect.stringMatching(message),
      data: expect.objectContaining({ http_status: status }),
    },
  });
}

describe('Streamable HTTP', () => {
  let gateway: HttpGatewayHandle;
  let sessionId: string;
  const session = () => ({ 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-06-18' });

  beforeAll(async () => {
    gateway = await startHttpGateway({ fixtures: true });
    sessionId = await openSession(gateway);
  });

  afterAll(async () => {
    await gateway.close();
  });

  describe('JSON responses', () => {
    it('are application/json, for results and for errors', async () => {
      const ok = await post(gateway, { jsonrpc: '2.0', id: 1, method: 'ping' }, session());
      expect(ok.status).toBe(200);
      expect(ok.headers['content-type']).toMatch(JSON_TYPE);
      expect(JSON.parse(ok.text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });

      const failed = await post(gateway, { jsonrpc: '2.0', id: 2, method: 'nope' }, session());
      expect(failed.status).toBe(200);
      expect(failed.headers['content-type']).toMatch(JSON_TYPE);
      expect(JSON.parse(failed.text)).toMatchObject({ id: 2, error: { code: -32601 } });
    });

    it('the initialize response carries the session id header', async () => {
      const res = await post(gateway, initializeBody());
      expect(res.headers['content-type']).toMatch(JSON_TYPE);
      expect(res.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['mcp-session-id']).not.toBe(sessionId);
    });

    it('a failed initialize leaves no session behind', async () => {
      const res = await post(gateway, {
        jsonrpc: '2.0',
        id: 'bad',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18' },
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toMatchObject({ id: 'bad', error: { code: -32602 } });
      expect(res.headers['mcp-session-id']).toBeUndefined();
    });
  });

  describe('sessions', () => {
    it('400 for a POST without Mcp-Session-Id after initialize', async () => {
      const res = await post(gateway, { jsonrpc: '2.0', id: 1, method: 'ping' });
      expectHttpError(res, 400, /Mcp-Session-Id header is required/);
    });

    it('404 for an unknown session', async () => {
      const res = await post(
        gateway,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { 'Mcp-Session-Id': '00000000-0000-4000-8000-000000000000' },
      );
      expectHttpError(res, 404, /Session not found/);
    });

    it('DELETE ends the session: 200, then 404 for it everywhere', async () => {
      const doomed = await openSession(gateway);
      const headers = { 'Mcp-Session-Id': doomed, 'MCP-Protocol-Version': '2025-06-18' };
      const deleted = await request(gateway.baseUrl).delete('/mcp').set(headers);
      expect(deleted.status).toBe(200);
      expectHttpError(
        await post(gateway, { jsonrpc: '2.0', id: 1, method: 'ping' }, headers),
        404,
        /Session not found/,
      );
      expectHttpError(
        await request(gateway.baseUrl).delete('/mcp').set(headers),
        404,
        /Session not found/,
      );
      const stream = await request(gateway.baseUrl)
        .get('/mcp')
        .set(headers)
        .set('Accept', 'text/event-stream');
      expectHttpError(stream, 404, /Session not found/);
    });
  });

  describe('MCP-Protocol-Version', () => {
    it('400 for an unsupported version on POST, GET and DELETE', async () => {
      const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '1999-01-01' };
      expectHttpError(
        await post(gateway, { jsonrpc: '2.0', id: 1, method: 'ping' }, headers),
        400,
        /unsupported MCP-Protocol-Version "1999-01-01"/,
      );
      expectHttpError(
        await request(gateway.baseUrl).get('/mcp').set(headers).set('Accept', 'text/event-stream'),
        400,
        /1999-01-01/,
      );
      expectHttpError(
        await request(gateway.baseUrl).delete('/mcp').set(headers),
        400,
        /1999-01-01/,
      );
    });

    it('a missing header is fine, and so is any supported revision', async () => {
      for (const version of [undefined, '2025-03-26', '2025-11-25']) {
        const headers: Record<string, string> = { 'Mcp-Session-Id': sessionId };
        if (version) headers['MCP-Protocol-Version'] = version;
        const res = await post(gateway, { jsonrpc: '2.0', id: 'v', method: 'ping' }, headers);
        expect(res.status).toBe(200);
        expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 'v', result: {} });
      }
    });
  });

  describe('Origin and Host (DNS rebinding)', () => {
    it('403 for a foreign Origin, before anything else happens', async () => {
      const res = await post(gateway, initializeBody(), { Origin: 'https://evil.example' });
      expectHttpError(res, 403, /Origin "https:\/\/evil.example" is not allowed/);
      expect(res.headers['mcp-session-id']).toBeUndefined();
    });

    it('200 for a same-origin request', async () => {
      const res = await post(
        gateway,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { ...session(), Origin: gateway.baseUrl },
      );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('403 for a foreign Host header on a loopback-bound gateway; loopback names pass', async () => {
      expect(gateway.config.http.host).toBe('127.0.0.1');
      const port = new URL(gateway.baseUrl).port;
      const foreign = await post(
        gateway,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { ...session(), Host: `attacker.example:${port}` },
      );
      expectHttpError(foreign, 403, /Host "attacker.example:\d+" is not allowed/);
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
        const res = await post(
          gateway,
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { ...session(), Host: host },
        );
        expect(res.status).toBe(200);
      }
    });

    it('200 for an Origin listed in http.cors.allowed_origins', async () => {
      const allowed = await startHttpGateway({
        fixtures: true,
        config: { http: { cors: { allowed_origins: ['https://app.example.com'] } } },
      });
      try {
        const ok = await post(allowed, initializeBody(), { Origin: 'https://app.example.com' });
        expect(ok.status).toBe(200);
        expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
        expect(JSON.parse(ok.text)).toMatchObject({
          id: 'init',
          result: { protocolVersion: '2025-06-18' },
        });
        const other = await post(allowed, initializeBody(), { Origin: 'https://app.example.org' });
        expectHttpError(other, 403, /not allowed/);
      } finally {
        await allowed.close();
      }
    });
  });

  describe('body limit', () => {
    it('413 with a JSON-RPC error body for 5 MiB against the 4 MiB default', async () => {
      expect(gateway.config.http.body_limit_bytes).toBe(4 * 1024 * 1024);
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 'big',
        method: 'fixture/echo',
        params: { pad: 'x'.repeat(5 * 1024 * 1024) },
      });
      const res = await post(gateway, body, session());
      expectHttpError(res, 413, /exceeds http\.body_limit_bytes \(4194304 bytes\)/);
      // The gateway is unharmed.
      const after = await post(gateway, { jsonrpc: '2.0', id: 'after', method: 'ping' }, session());
      expect(JSON.parse(after.text)).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
    });

    it('413 above a small configured limit, and the same body shape fits below it', async () => {
      const small = await startHttpGateway({
        fixtures: true,
        config: { http: { body_limit_bytes: 1024 } },
      });
      try {
        const id = await openSession(small);
        const headers = { 'Mcp-Session-Id': id };
        const echo = (pad: number) =>
          JSON.stringify({
            jsonrpc: '2.0',
            id: 'e',
            method: 'fixture/echo',
            params: { pad: 'x'.repeat(pad) },
          });
        const tooBig = await post(small, echo(1100), headers);
        expectHttpError(tooBig, 413, /1024 bytes/);
        expect(JSON.parse(tooBig.text).error.code).toBe(-32600);
        const fits = await post(small, echo(900), headers);
        expect(fits.status).toBe(200);
        expect(JSON.parse(fits.text)).toMatchObject({ id: 'e', result: { params: {} } });
      } finally {
        await small.close();
      }
    });
  });

  describe('front door', () => {
    // POST /mcp is served ahead of Express (mcp-front-door.ts), in every spelling a route matches.
    it('answers every spelling of the path alike, with the same headers', async () => {
      const call = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };
      const front = await post(gateway, call, session(), '/mcp?probe=1');
      const routed = await post(gateway, call, session(), '/MCP');
      expect(front.status).toBe(200);
      expect(routed.status).toBe(200);
      expect(JSON.parse(routed.text)).toEqual(JSON.parse(front.text));
      for (const res of [front, routed]) {
        expect(res.headers['content-type']).toMatch(JSON_TYPE);
        expect(res.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('refuses a foreign Origin and an unknown session in every spelling', async () => {
      for (const path of ['/mcp', '/MCP']) {
        const foreign = await post(
          gateway,
          initializeBody(),
          { Origin: 'https://evil.example' },
          path,
        );
        expectHttpError(foreign, 403, /Origin "https:\/\/evil.example" is not allowed/);
        const unknown = await post(
          gateway,
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { 'Mcp-Session-Id': 'no-such-session' },
          path,
        );
        expectHttpError(unknown, 404, /Session not found/);
      }
    });

    it('leaves other methods and paths to Express', async () => {
      const put = await request(gateway.baseUrl)
        .put('/mcp')
        .set('Content-Type', 'application/json')
        .send('{}');
      expect(put.status).toBe(404);
      const deeper = await post(
        gateway,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        session(),
        '/mcp/extra',
      );
      expect(deeper.status).toBe(404);
    });
  });

  describe('standalone SSE stream', () => {
    const opened: SseConnection[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((c) => c.abort()));
      // The next test opens the session's stream again: wait until the server saw this one go.
      const hub = gateway.app.get(SseHub);
      await waitUntil(
        () => hub.openCount === 0,
        5_000,
        () => `${hub.openCount} streams open`,
      );
    });

    async function stream(path: string, headers: Record<string, string>): Promise<SseConnection> {
      const connection = await openSse(`${gateway.baseUrl}${path}`, headers);
      opened.push(connection);
      return connection;
    }

    it('406 for GET /mcp without Accept: text/event-stream', async () => {
      const res = await request(gateway.baseUrl)
        .get('/mcp')
        .set(session())
        .set('Accept', 'application/json');
      expectHttpError(res, 406, /Not Acceptable/);
    });

    it('409 for a second concurrent GET stream of the same session', async () => {
      const first = await stream('/mcp', session());
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('text/event-stream');
      expect(first.headers['mcp-session-id']).toBe(sessionId);
      const second = await request(gateway.baseUrl)
        .get('/mcp')
        .set(session())
        .set('Accept', 'text/event-stream');
      expectHttpError(second, 409, /already has an open SSE stream/);
    });

    it('GET /mcp/sse?sessionId= carries the session notifications', async () => {
      const sse = await stream(`/mcp/sse?sessionId=${encodeURIComponent(sessionId)}`, {});
      expect(sse.status).toBe(200);
      // JSON-only POST: the request cannot stream, so its notifications go to the session stream.
      const res = await request(gateway.baseUrl)
        .post('/mcp')
        .set(session())
        .set('Content-Type', 'application/json')
        .set('Accept', 'application/json')
        .send(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 'n',
            method: 'fixture/notify',
            params: { count: 2, _meta: { progressToken: 'tok' } },
          }),
        );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toMatchObject({ id: 'n', result: { sent: 2 } });
      const isProgress = (n: number) => (e: SseEvent) =>
        e.event === 'message' &&
        messageOf(e).method === 'notifications/progress' &&
        (messageOf(e).params as Json).progress === n;
      const first = await sse.next(isProgress(1));
      await sse.next(isProgress(2));
      expect(messageOf(first)).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'tok', progress: 1, total: 2 },
      });
      // The default threshold is info: debug is not sent, the rest is.
      const logged = (JSON.parse(res.text).result as Json).logged as string[];
      expect(logged).not.toContain('debug');
      expect(logged).toContain('info');
      await sse.next((e) => messageOf(e).method === 'notifications/message');
    });

    it('a POST that accepts SSE streams its notifications and ends with the response', async () => {
      const res = await post(
        gateway,
        { jsonrpc: '2.0', id: 'streamed', method: 'fixture/notify', params: { count: 3 } },
        session(),
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream');
      const messages = res.text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Json);
      expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(3);
      expect(messages[messages.length - 1]).toMatchObject({ id: 'streamed', result: { sent: 3 } });
    });
  });
});

describe('legacy HTTP+SSE (2024-11-05)', () => {
  let gateway: HttpGatewayHandle;
  const opened: SseConnection[] = [];

  beforeAll(async () => {
    gateway = await startHttpGateway({ fixtures: true });
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((c) => c.abort()));
  });

  afterAll(async () => {
    await gateway.close();
  });

  async function connect(): Promise<{ sse: SseConnection; endpoint: string }> {
    const sse = await openSse(`${gateway.baseUrl}/sse`);
    opened.push(sse);
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toBe('text/event-stream');
    const endpoint = await sse.next((e) => e.event === 'endpoint');
    expect(endpoint.data).toMatch(/^\/messages\?sessionId=[0-9a-f-]{36}$/);
    return { sse, endpoint: endpoint.data };
  }

  const postMessage = (endpoint: string, body: unknown) =>
    request(gateway.baseUrl)
      .post(endpoint)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  const answer = (sse: SseConnection, id: unknown) =>
    sse.next((e) => e.event === 'message' && messageOf(e).id === id).then(messageOf);

  it('sends an endpoint event, accepts POST /messages with 202 and answers on the stream', async () => {
    const { sse, endpoint } = await connect();

    const early = await postMessage(endpoint, {
      jsonrpc: '2.0',
      id: 'early',
      method: 'fixture/echo',
    });
    expect(early.status).toBe(202);
    expect(await answer(sse, 'early')).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/not initialized/) },
    });

    const init = await postMessage(endpoint, initializeBody('2024-11-05'));
    expect(init.status).toBe(202);
    expect(await answer(sse, 'init')).toMatchObject({
      jsonrpc: '2.0',
      result: { protocolVersion: '2024-11-05', serverInfo: { name: 'owlclaw-mcp-gateway' } },
    });
    expect(
      (await postMessage(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status,
    ).toBe(202);

    await postMessage(endpoint, {
      jsonrpc: '2.0',
      id: 7,
      method: 'fixture/echo',
      params: { a: 1 },
    });
    expect(await answer(sse, 7)).toMatchObject({
      result: { params: { a: 1 }, transport: 'legacy-sse' },
    });

    // Batches work on this old revision, and come back as one event per response.
    await postMessage(endpoint, [
      { jsonrpc: '2.0', id: 'b1', method: 'ping' },
      { jsonrpc: '2.0', id: 'b2', method: 'nope' },
    ]);
    expect(await answer(sse, 'b1')).toEqual({ jsonrpc: '2.0', id: 'b1', result: {} });
    expect(await answer(sse, 'b2')).toMatchObject({ error: { code: -32601 } });
  });

  it('answers an unparseable POST /messages with 400 and a -32700 body', async () => {
    const { endpoint } = await connect();
    const res = await postMessage(endpoint, '{"jsonrpc":');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(JSON_TYPE);
    expect(JSON.parse(res.text)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700 },
    });
  });

  it('404 for POST /messages with an unknown or a streamable session id', async () => {
    const unknown = await postMessage('/messages?sessionId=nope', {
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
    });
    expectHttpError(unknown, 404, /Session not found: nope/);
    const streamable = await openSession(gateway);
    const wrongKind = await postMessage(`/messages?sessionId=${streamable}`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
    });
    expectHttpError(wrongKind, 404, /Session not found/);
  });

  it('403 for GET /sse from a foreign Origin', async () => {
    const res = await request(gateway.baseUrl)
      .get('/sse')
      .set('Accept', 'text/event-stream')
      .set('Origin', 'http://evil.example');
    expectHttpError(res, 403, /Origin/);
  });
});

describe('health and metrics', () => {
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    gateway = await startHttpGateway({ fixtures: true });
  });

  afterAll(async () => {
    await gateway.close();
  });

  it('/health is 200', async () => {
    const res = await request(gateway.baseUrl).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok' });
  });

  it('/health/ready is 200 with the gateway up', async () => {
    const res = await request(gateway.baseUrl).get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      info: { gateway: { status: 'up', methods: expect.any(Number) } },
    });
    expect(res.body.info.gateway.methods).toBeGreaterThanOrEqual(5);
  });

  it('/metrics has request counts, durations, active sessions and process metrics', async () => {
    const sessionId = await openSession(gateway);
    const headers = { 'Mcp-Session-Id': sessionId };
    await post(gateway, { jsonrpc: '2.0', id: 1, method: 'ping' }, headers);
    await post(
      gateway,
      { jsonrpc: '2.0', id: 2, method: 'fixture/raise', params: { code: -32003 } },
      headers,
    );
    await post(gateway, { jsonrpc: '2.0', id: 3, method: 'no/such' }, headers);

    const res = await request(gateway.baseUrl).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(text).toMatch(/^mcp_requests_total\{method="ping",outcome="success"\} [1-9]\d*$/m);
    expect(text).toMatch(/^mcp_requests_total\{method="initialize",outcome="success"\} [1-9]/m);
    expect(text).toMatch(/^mcp_requests_total\{method="fixture\/raise",outcome="denied"\} 1$/m);
    expect(text).toMatch(
      /^mcp_requests_total\{method="\(rejected\)",outcome="protocol_error"\} [1-9]/m,
    );
    expect(text).toMatch(/^# TYPE mcp_request_duration_seconds histogram$/m);
    expect(text).toMatch(/^mcp_request_duration_seconds_bucket\{le="\+Inf",method="ping"\} [1-9]/m);
    expect(text).toMatch(/^mcp_request_duration_seconds_count\{method="ping"\} [1-9]/m);
    expect(text).toMatch(/^mcp_sessions_active\{transport="streamable-http"\} [1-9]\d*$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total [\d.e+-]+$/m);
  });

  it('counts a body that is not JSON in mcp_requests_total, as (rejected)', async () => {
    const rejected = async () => {
      const text = (await request(gateway.baseUrl).get('/metrics')).text;
      const row = /^mcp_requests_total\{method="\(rejected\)",outcome="protocol_error"\} (\d+)$/m;
      return Number(row.exec(text)?.[1] ?? 0);
    };
    const sessionId = await openSession(gateway);
    const before = await rejected();
    const res = await post(gateway, '{not json', { 'Mcp-Session-Id': sessionId });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await rejected()).toBe(before + 1);
  });
});
