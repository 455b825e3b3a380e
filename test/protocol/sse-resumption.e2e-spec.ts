/**
 * SEP-1699 on Streamable HTTP: SSE event ids, the priming event (id, retry,
 * empty data) that opens POST streams for 2025-11-25 clients, and resumption
 * with GET /mcp + Last-Event-ID, both of a POST stream the server closed
 * mid-call (test_reconnection) or the client dropped, and of the standalone
 * GET stream. Raw HTTP, so every field on the wire is checked.
 */
import { ResourceProviders } from '../../src/resources/resource-providers';
import { SseHub } from '../../src/transport/http/sse.hub';
import { SSE_RETRY_MS } from '../../src/transport/http/post-response.sink';
import {
  ConformanceGateway,
  startConformanceGateway,
} from '../conformance/conformance-http-gateway';
import {
  PROGRESS_STEPS,
  RECONNECTION_DELAY_MS,
  RECONNECTION_TEXT,
} from '../conformance/conformance-fixture.constants';
import { CLIENT_INFO, Json, waitUntil } from '../support/rpc-adapter';

interface WireEvent {
  id?: string;
  event?: string;
  retry?: number;
  data: string;
}

/** An SSE response read as it arrives, parsed field by field (ids and retry included). */
class SseReader {
  readonly events: WireEvent[] = [];
  readonly ended: Promise<void>;
  private waiters: Array<() => void> = [];

  private constructor(
    readonly res: Response,
    private readonly controller: AbortController,
  ) {
    this.ended = this.pump().finally(() => this.wake());
  }

  static async open(url: string, init: RequestInit): Promise<SseReader> {
    const controller = new AbortController();
    const res = await fetch(url, { ...init, signal: controller.signal });
    return new SseReader(res, controller);
  }

  get messages(): Json[] {
    return this.events.filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as Json);
  }

  async waitFor(count: number, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `got ${this.events.length} of ${count} events: ${JSON.stringify(this.events)}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  abort(): void {
    this.controller.abort();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private async pump(): Promise<void> {
    if (!this.res.body) return;
    const reader = this.res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let current: Partial<WireEvent> & { lines?: string[] } = {};
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let newline = buffer.indexOf('\n');
        while (newline !== -1) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf('\n');
          if (line === '') {
            if (current.lines) {
              const { lines, ...fields } = current;
              this.events.push({ ...fields, data: lines.join('\n') });
              this.wake();
            }
            current = {};
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const raw = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') current.lines = [...(current.lines ?? []), raw];
          else if (field === 'id') current.id = raw;
          else if (field === 'event') current.event = raw;
          else if (field === 'retry') current.retry = Number(raw);
        }
      }
    } catch {
      // Aborted by the test.
    }
  }
}

const EVENT_ID = /^p\d+\/\d+$/;

let gateway: ConformanceGateway;
let hub: SseHub;

beforeAll(async () => {
  gateway = await startConformanceGateway();
  hub = gateway.app.get(SseHub);
});

afterAll(async () => {
  await gateway?.close();
});

afterEach(async () => {
  await waitUntil(
    () => hub.openCount === 0,
    5_000,
    () => `${hub.openCount} SSE streams open`,
  );
});

/** initialize + notifications/initialized; returns the headers of later requests. */
async function openSession(protocolVersion = '2025-11-25'): Promise<Record<string, string>> {
  const res = await post(
    {},
    {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO },
    },
  );
  const sessionId = res.headers.get('mcp-session-id');
  await res.arrayBuffer();
  if (!sessionId) throw new Error(`initialize failed: ${res.status}`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  const ack = await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  await ack.arrayBuffer();
  return headers;
}

function post(headers: Record<string, string>, body: object): Promise<Response> {
  return fetch(`${gateway.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });
}

function postStream(headers: Record<string, string>, body: object): Promise<SseReader> {
  return SseReader.open(`${gateway.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });
}

function getStream(headers: Record<string, string>, lastEventId?: string): Promise<SseReader> {
  const resume: Record<string, string> = lastEventId ? { 'last-event-id': lastEventId } : {};
  return SseReader.open(`${gateway.baseUrl}/mcp`, {
    headers: { ...headers, ...resume, accept: 'text/event-stream' },
  });
}

const callTool = (id: number, name: string, meta?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
});

const seqOf = (id: string | undefined) => Number(id?.split('/')[1]);

describe('SSE event ids and the priming event', () => {
  test('a 2025-11-25 POST stream opens with a priming event; every event has an increasing id', async () => {
    const session = await openSession();
    const stream = await postStream(
      session,
      callTool(1, 'test_tool_with_progress', { progressToken: 'tok' }),
    );
    await stream.ended;
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream');
    const [priming, ...rest] = stream.events;
    expect(priming).toEqual({ id: expect.stringMatching(EVENT_ID), retry: SSE_RETRY_MS, data: '' });
    expect(rest.every((e) => e.event === 'message' && EVENT_ID.test(e.id ?? ''))).toBe(true);
    const streamIds = new Set(stream.events.map((e) => e.id!.split('/')[0]));
    expect(streamIds.size).toBe(1);
    const seqs = stream.events.map((e) => seqOf(e.id));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const messages = stream.messages;
    expect(messages.slice(0, 3).map((m) => (m.params as Json).progress)).toEqual([
      ...PROGRESS_STEPS,
    ]);
    expect(messages[3]).toMatchObject({ id: 1, result: { content: [{ type: 'text' }] } });
  });

  test('older revisions get ids on every event but no priming event', async () => {
    const session = await openSession('2025-06-18');
    const stream = await postStream(
      session,
      callTool(1, 'test_tool_with_progress', { progressToken: 'tok' }),
    );
    await stream.ended;
    expect(stream.events.every((e) => e.data !== '' && EVENT_ID.test(e.id ?? ''))).toBe(true);
    expect(stream.events.some((e) => e.retry !== undefined)).toBe(false);
    expect(stream.messages).toHaveLength(4);
  });

  test('an older client cannot be asked to reconnect: test_reconnection answers on its POST', async () => {
    const session = await openSession('2025-06-18');
    const res = await post(session, callTool(1, 'test_reconnection'));
    const body = (await res.json()) as Json;
    expect((body.result as Json).content).toEqual([
      { type: 'text', text: 'The stream could not be closed for resumption.' },
    ]);
  });
});

describe('resumption with GET /mcp and Last-Event-ID', () => {
  test('test_reconnection closes its POST stream mid-call; the result arrives on the GET that resumes it', async () => {
    const session = await openSession();
    // Like the SDK client, keep the standalone stream open: a resume is not a second standalone stream.
    const standalone = await getStream(session);
    expect(standalone.res.status).toBe(200);

    const first = await postStream(session, callTool(7, 'test_reconnection'));
    await first.ended;
    expect(first.events).toEqual([
      { id: expect.stringMatching(EVENT_ID), retry: SSE_RETRY_MS, data: '' },
    ]);

    const resumed = await getStream(session, first.events[0].id);
    expect(resumed.res.status).toBe(200);
    expect(resumed.res.headers.get('mcp-session-id')).toBe(session['mcp-session-id']);
    await resumed.ended;
    expect(resumed.messages).toEqual([
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: RECONNECTION_TEXT }] } },
    ]);
    expect(resumed.events[0].id?.split('/')[0]).toBe(first.events[0].id?.split('/')[0]);
    expect(seqOf(resumed.events[0].id)).toBeGreaterThan(seqOf(first.events[0].id));
    standalone.abort();
  });

  test('a late resume replays the result the stream sent while no connection carried it', async () => {
    const session = await openSession();
    const first = await postStream(session, callTool(8, 'test_reconnection'));
    await first.ended;
    await new Promise((resolve) => setTimeout(resolve, RECONNECTION_DELAY_MS * 4));
    const resumed = await getStream(session, first.events[0].id);
    await resumed.ended;
    expect(resumed.messages).toEqual([
      { jsonrpc: '2.0', id: 8, result: { content: [{ type: 'text', text: RECONNECTION_TEXT }] } },
    ]);
  });

  test('a client that dropped its POST connection resumes from the priming id and misses nothing', async () => {
    const session = await openSession();
    const first = await postStream(
      session,
      callTool(9, 'test_tool_with_progress', { progressToken: 'drop' }),
    );
    await first.waitFor(1);
    first.abort();
    await waitUntil(
      () => hub.openCount === 0,
      5_000,
      () => 'the POST stream to close',
    );

    const resumed = await getStream(session, first.events[0].id);
    await resumed.ended;
    const messages = resumed.messages;
    expect(messages.slice(0, 3).map((m) => (m.params as Json).progress)).toEqual([
      ...PROGRESS_STEPS,
    ]);
    expect(messages[3]).toMatchObject({ id: 9, result: {} });
    expect(messages).toHaveLength(4);
  });

  test('the standalone stream resumes after the last event the client saw, then stays live', async () => {
    const session = await openSession();
    const providers = gateway.app.get(ResourceProviders);
    const first = await getStream(session);
    await waitUntil(
      () => hub.openCount === 1,
      5_000,
      () => 'the GET stream to open',
    );
    providers.listChanged();
    providers.listChanged();
    await first.waitFor(2);
    expect(first.events.map((e) => e.id)).toEqual([
      expect.stringMatching(/^g\/\d+$/),
      expect.stringMatching(/^g\/\d+$/),
    ]);
    first.abort();
    await waitUntil(
      () => hub.openCount === 0,
      5_000,
      () => 'the GET stream to close',
    );

    const resumed = await getStream(session, first.events[0].id);
    await resumed.waitFor(1);
    expect(resumed.events[0]).toEqual(first.events[1]);
    providers.listChanged();
    await resumed.waitFor(2);
    expect(resumed.messages[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/list_changed',
    });
    resumed.abort();
  });

  test('a Last-Event-ID naming nothing is 400; resuming a stream that is connected is 409', async () => {
    const session = await openSession();
    for (const id of ['nonsense', 'p999/1', 'g/999999']) {
      const res = await fetch(`${gateway.baseUrl}/mcp`, {
        headers: { ...session, accept: 'text/event-stream', 'last-event-id': id },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as Json).error).toMatchObject({ code: expect.any(Number) });
    }
    const standalone = await getStream(session);
    await waitUntil(
      () => hub.openCount === 1,
      5_000,
      () => 'the GET stream to open',
    );
    const conflict = await fetch(`${gateway.baseUrl}/mcp`, {
      headers: { ...session, accept: 'text/event-stream', 'last-event-id': 'g/0' },
    });
    expect(conflict.status).toBe(409);
    await conflict.arrayBuffer();
    standalone.abort();
  });
});
