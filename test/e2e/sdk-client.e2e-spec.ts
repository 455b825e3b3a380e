import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  EmptyResultSchema,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessage,
  JSONRPCRequest,
  ListRootsRequestSchema,
  LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  McpError,
  Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { McpSession } from '../../src/session/mcp-session';
import { SessionRegistry } from '../../src/session/session.registry';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { rawInitialize } from '../support/raw-initialize';
import {
  connectSdkClient,
  HttpExchange,
  SdkClientHandle,
  SdkClientOptions,
  TRANSPORT_KINDS,
  TransportKind,
  waitUntil,
} from '../support/sdk-clients';
import { REPO_ROOT } from '../support/stdio-process';

/**
 * The official MCP TypeScript SDK client against the real gateway, every
 * scenario over stdio (a spawned child), Streamable HTTP and legacy HTTP+SSE
 * (the HTTP gateway runs in this process, so its session registry is visible).
 */

const PACKAGE = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};
const SUPPORTED_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
const WARNING_AND_ABOVE = ['warning', 'error', 'critical', 'alert', 'emergency'];
const ROOT = { uri: 'file:///work/e2e-root', name: 'e2e root' };

const NotifyResult = z.looseObject({ sent: z.number(), logged: z.array(z.string()) });
const AskResult = z.looseObject({ answer: z.looseObject({ roots: z.array(z.unknown()) }) });
const AnyResult = z.looseObject({});

let gateway: HttpGatewayHandle;
let sessions: SessionRegistry;
const handles: SdkClientHandle[] = [];

beforeAll(async () => {
  gateway = await startHttpGateway({ fixtures: true });
  sessions = gateway.app.get(SessionRegistry);
});

afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.dispose()));
  // No scenario may leave a session behind in the in-process gateway.
  await waitUntil(() => sessions.size === 0, 'the HTTP gateway to hold no session');
});

afterAll(async () => {
  await gateway?.close();
});

/** stdio spawns the built CLI unless the scenario needs the fixture methods. */
async function connect(
  kind: TransportKind,
  options: Omit<SdkClientOptions, 'kind' | 'baseUrl'> = {},
): Promise<SdkClientHandle> {
  const handle = await connectSdkClient({ kind, baseUrl: gateway.baseUrl, ...options });
  handles.push(handle);
  return handle;
}

/** The gateway's record of an HTTP client's session (undefined for stdio: another process). */
function serverSession(h: SdkClientHandle): McpSession | undefined {
  return h.serverSessionId === undefined ? undefined : sessions.get(h.serverSessionId);
}

function sentRequest(h: SdkClientHandle, method: string): JSONRPCRequest {
  const found = h.wire.sent.find((m) => isJSONRPCRequest(m) && m.method === method);
  if (!found || !isJSONRPCRequest(found)) throw new Error(`the client sent no ${method} request`);
  return found;
}

function answersTo(h: SdkClientHandle, id: JSONRPCRequest['id']): JSONRPCMessage[] {
  return h.wire.received.filter((m) => !('method' in m) && 'id' in m && m.id === id);
}

/** The HTTP exchange (POST) that carried the request with this JSON-RPC method. */
function postCarrying(h: SdkClientHandle, method: string): HttpExchange | undefined {
  return h.http.find(
    (x) =>
      x.method === 'POST' &&
      typeof x.body === 'object' &&
      x.body !== null &&
      (x.body as { method?: unknown }).method === method,
  );
}

/**
 * How the HTTP answer to a POSTed request looks on each transport: Streamable
 * HTTP switches the POST to an SSE body once the request emits messages; the
 * legacy transport acknowledges with 202 and answers on the GET /sse stream.
 */
const POST_ANSWER: Record<TransportKind, { status: number; contentType: string } | undefined> = {
  stdio: undefined,
  'streamable-http': { status: 200, contentType: 'text/event-stream' },
  'legacy-sse': { status: 202, contentType: 'text/plain; charset=utf-8' },
};

function expectPostAnswer(h: SdkClientHandle, method: string): void {
  const exchange = postCarrying(h, method);
  const expected = POST_ANSWER[h.kind];
  expect(exchange && { status: exchange.status, contentType: exchange.contentType ?? '' }).toEqual(
    expected,
  );
}

describe.each(TRANSPORT_KINDS)('official SDK client over %s', (kind) => {
  test('1. connects: serverInfo, logging capability and instructions', async () => {
    const h = await connect(kind);

    expect(h.client.getServerVersion()).toEqual({
      name: 'owlclaw-mcp-gateway',
      title: 'OwlClaw MCP Gateway',
      version: PACKAGE.version,
    });
    expect(h.client.getServerCapabilities()).toEqual(expect.objectContaining({ logging: {} }));
    const instructions = h.client.getInstructions();
    expect(typeof instructions).toBe('string');
    expect(instructions?.trim().length).toBeGreaterThan(20);
    // Unpinned, the SDK asks for its latest revision, which the gateway speaks.
    expect(sentRequest(h, 'initialize').params).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(h.initializeResult.protocolVersion).toBe('2025-11-25');
    expect(h.errors).toEqual([]);
  });

  describe('2. version negotiation', () => {
    // Over stdio the oldest and the newest revision: the ones between take the same path on every
    // transport, and only HTTP carries the revision anywhere else (its header), so both HTTP
    // transports negotiate every one. Each stdio case starts a gateway process.
    const versions =
      kind === 'stdio' ? [SUPPORTED_VERSIONS[0], SUPPORTED_VERSIONS.at(-1)!] : SUPPORTED_VERSIONS;
    test.each(versions)('negotiates %s with the SDK client', async (version) => {
      const h = await connect(kind, { protocolVersion: version });

      expect(sentRequest(h, 'initialize').params).toMatchObject({ protocolVersion: version });
      expect(h.initializeResult.protocolVersion).toBe(version);
      expect(h.client.getServerCapabilities()).toEqual(expect.objectContaining({ logging: {} }));
      await expect(h.client.ping()).resolves.toEqual({});
      if (kind !== 'stdio') {
        // The gateway recorded the revision, and the SDK now names it on every HTTP request.
        expect(serverSession(h)?.protocolVersion).toBe(version);
        const lastPost = h.http.filter((x) => x.method === 'POST').at(-1);
        expect(lastPost?.protocolVersionHeader).toBe(version);
      }
    });

    test.each([
      ['1.0', '2024-11-05'],
      ['2099-01-01', '2025-11-25'],
    ])('answers %s with %s (raw initialize)', async (requested, answered) => {
      const outcome = await rawInitialize(kind, requested, gateway.baseUrl);

      expect(outcome.response).toMatchObject({
        jsonrpc: '2.0',
        result: {
          protocolVersion: answered,
          capabilities: { logging: {} },
          serverInfo: { name: 'owlclaw-mcp-gateway', version: PACKAGE.version },
        },
      });
      expect(outcome.exit).toEqual(kind === 'stdio' ? { code: 0, signal: null } : undefined);
    });
  });

  test('3. ping succeeds', async () => {
    const h = await connect(kind);

    await expect(h.client.ping()).resolves.toEqual({});
    const ping = sentRequest(h, 'ping');
    expect(answersTo(h, ping.id)).toEqual([{ jsonrpc: '2.0', id: ping.id, result: {} }]);
  });

  test('4. logging/setLevel filters notifications/message; a bad level is -32602', async () => {
    const h = await connect(kind, { fixtures: true });
    const logged: Array<LoggingMessageNotification['params']> = [];
    h.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push(n.params);
    });

    await expect(h.client.setLoggingLevel('warning')).resolves.toEqual({});
    const result = await h.client.request(
      { method: 'fixture/notify', params: { count: 0 } },
      NotifyResult,
    );

    expect(result).toEqual({ sent: 0, logged: WARNING_AND_ABOVE });
    await waitUntil(() => logged.length >= WARNING_AND_ABOVE.length, 'the log notifications');
    expect(logged).toEqual(
      WARNING_AND_ABOVE.map((level) => ({
        level,
        logger: 'fixture',
        data: { level, note: 'fixture log' },
      })),
    );

    const refused = h.client.request(
      { method: 'logging/setLevel', params: { level: 'loud' } },
      EmptyResultSchema,
    );
    await expect(refused).rejects.toBeInstanceOf(McpError);
    await expect(refused).rejects.toMatchObject({ code: -32602 });
    // The refused call left the level as it was.
    const again = await h.client.request(
      { method: 'fixture/notify', params: { count: 0 } },
      NotifyResult,
    );
    expect(again.logged).toEqual(WARNING_AND_ABOVE);
  });

  test('5. progress notifications arrive in order before the result', async () => {
    const h = await connect(kind, { fixtures: true });
    const events: string[] = [];
    const progress: Progress[] = [];

    const result = await h.client.request(
      { method: 'fixture/notify', params: { count: 5 } },
      NotifyResult,
      {
        onprogress: (p) => {
          progress.push(p);
          events.push(`progress ${p.progress}`);
        },
      },
    );
    events.push('result');

    expect(result.sent).toBe(5);
    const expected = [1, 2, 3, 4, 5].map((n) => ({ progress: n, total: 5 }));
    // The gateway's promise is the wire order: every notification, token echoed, before the answer.
    const request = sentRequest(h, 'fixture/notify');
    const token = request.params?._meta?.progressToken;
    expect(token).toBeDefined();
    const onWire = h.wire.received.filter(
      (m) =>
        (isJSONRPCNotification(m) && m.method === 'notifications/progress') ||
        ('id' in m && m.id === request.id && !('method' in m)),
    );
    expect(onWire).toEqual([
      ...expected.map((p) => ({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, ...p },
      })),
      expect.objectContaining({ id: request.id, result: expect.anything() }),
    ]);
    // The SDK Client runs notification handlers a microtask late but settles the
    // response at once, dropping its progress handler: when a loaded machine hands
    // it the last notifications and the answer in one read, those notifications
    // miss the callback. What reaches it is therefore an in-order prefix.
    expect(progress).toEqual(expected.slice(0, progress.length));
    expect(events).toEqual([...progress.map((p) => `progress ${p.progress}`), 'result']);
    expectPostAnswer(h, 'fixture/notify');
  });

  test('6. cancellation: aborting a request sends notifications/cancelled', async () => {
    const h = await connect(kind, { fixtures: true });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('e2e cancel')), 200);

    // The sleep outlasts this test's own timeout, so a sleep seen ended below (no request in
    // flight) can only have been cancelled, never run to completion.
    try {
      await expect(
        h.client.request({ method: 'fixture/sleep', params: { ms: 60_000 } }, AnyResult, {
          signal: controller.signal,
        }),
      ).rejects.toThrow('e2e cancel');
    } finally {
      clearTimeout(timer);
    }

    const sleep = sentRequest(h, 'fixture/sleep');
    expect(h.wire.sent).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: sleep.id, reason: 'Error: e2e cancel' },
    });
    // The gateway stays healthy, and (per spec) never answers the cancelled request.
    await expect(h.client.ping()).resolves.toEqual({});
    expect(answersTo(h, sleep.id)).toEqual([]);
    if (h.stdio) {
      // The child's own account at EOF: nothing was still running.
      await h.dispose();
      const draining = h.stdio
        .stderr()
        .split('\n')
        .find((line) => line.includes('stdio input closed, draining'));
      expect(draining).toMatch(/"inflight":0\b/);
    } else {
      await waitUntil(() => serverSession(h)?.inflightCount === 0, 'the sleep to be aborted');
    }
    if (kind === 'streamable-http') {
      // The POST that carried the request ends without a JSON-RPC answer.
      await waitUntil(() => postCarrying(h, 'fixture/sleep') !== undefined, 'the sleep POST');
      expect(postCarrying(h, 'fixture/sleep')?.status).toBe(202);
    }
  });

  test('7. server-to-client request: roots/list answered by the client', async () => {
    const h = await connect(kind, { fixtures: true, capabilities: { roots: {} } });
    const asked: unknown[] = [];
    h.client.setRequestHandler(ListRootsRequestSchema, (request) => {
      asked.push(request.params ?? {});
      return { roots: [ROOT] };
    });

    const result = await h.client.request({ method: 'fixture/ask', params: {} }, AskResult);

    expect(result).toEqual({ answer: { roots: [ROOT] } });
    expect(asked).toHaveLength(1);
    const question = h.wire.received.find((m) => isJSONRPCRequest(m) && m.method === 'roots/list');
    expect(question).toBeDefined();
    const reply = h.wire.sent.find(
      (m) =>
        isJSONRPCResultResponse(m) &&
        question !== undefined &&
        'id' in question &&
        m.id === question.id,
    );
    expect(reply).toMatchObject({ result: { roots: [ROOT] } });
    // Over Streamable HTTP the question rides the fixture/ask POST's SSE body.
    expectPostAnswer(h, 'fixture/ask');
  });

  test('9. clean close leaves nothing behind', async () => {
    const before = sessions.size;
    const h = await connect(kind);
    const id = h.serverSessionId;
    if (kind !== 'stdio') expect(id && sessions.get(id)?.transport).toBe(kind);

    if (h.transport instanceof StreamableHTTPClientTransport) {
      // Streamable HTTP sessions outlive connections; a tidy client DELETEs before closing.
      await h.transport.terminateSession();
    }
    const closing = Date.now();
    await h.client.close();

    if (h.stdio) {
      const exit = await h.stdio.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - closing).toBeLessThan(5_000);
    } else {
      await waitUntil(
        () => id !== undefined && sessions.get(id) === undefined,
        'the session to leave the registry',
      );
      expect(sessions.size).toBe(before);
    }
  });
});

describe('official SDK client over streamable-http only', () => {
  test('8. terminateSession (DELETE) ends the session; its id then gets 404', async () => {
    const before = sessions.size;
    const h = await connect('streamable-http');
    const transport = h.transport;
    if (!(transport instanceof StreamableHTTPClientTransport)) throw new Error('wrong transport');
    const sessionId = transport.sessionId;
    expect(sessionId).toBeDefined();
    expect(sessions.size).toBe(before + 1);
    expect(sessions.get(sessionId ?? '')?.transport).toBe('streamable-http');

    await transport.terminateSession();

    expect(h.http.find((x) => x.method === 'DELETE')?.status).toBe(200);
    expect(transport.sessionId).toBeUndefined();
    expect(sessions.size).toBe(before);
    const res = await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId ?? '',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('Session not found') },
    });
  });

  test('9b. close() without DELETE leaves only an idle session that expiry reclaims', async () => {
    const h = await connect('streamable-http');
    const id = h.serverSessionId ?? '';
    // The SDK opens the standalone GET stream after notifications/initialized.
    await waitUntil(() => sessions.get(id)?.hasStandaloneStream() === true, 'the GET stream');

    await h.client.close();

    // The SDK sends no DELETE on close: the session stays, but nothing holds it busy.
    expect(h.http.some((x) => x.method === 'DELETE')).toBe(false);
    await waitUntil(() => sessions.get(id)?.busy === false, 'the GET stream to be released');
    expect(sessions.expireIdle(0)).toBe(1);
    expect(sessions.get(id)).toBeUndefined();
  });
});
