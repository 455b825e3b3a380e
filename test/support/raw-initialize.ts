import { ExitInfo, spawnReady } from './stdio-process';
import type { TransportKind } from './sdk-clients';

/**
 * An initialize handshake without the SDK, for protocol versions the official
 * client refuses to accept in an answer ('1.0', '2099-01-01'): the gateway's
 * reply is read as raw JSON-RPC, then the session is ended cleanly.
 */
export interface RawInitializeOutcome {
  /** The JSON-RPC response to initialize. */
  response: Record<string, unknown>;
  /** stdio: how the child exited after EOF. */
  exit?: ExitInfo;
}

export async function rawInitialize(
  kind: TransportKind,
  protocolVersion: string,
  baseUrl?: string,
): Promise<RawInitializeOutcome> {
  if (kind === 'stdio') return rawStdioInitialize(protocolVersion);
  if (!baseUrl) throw new Error(`${kind} needs baseUrl`);
  return kind === 'streamable-http'
    ? rawStreamableInitialize(baseUrl, protocolVersion)
    : rawLegacyInitialize(baseUrl, protocolVersion);
}

function initializeRequest(id: number, protocolVersion: string) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'owlclaw-e2e-raw', version: '1.0.0' },
    },
  };
}

async function rawStdioInitialize(protocolVersion: string): Promise<RawInitializeOutcome> {
  const gateway = await spawnReady();
  try {
    const response = await gateway.initialize(protocolVersion);
    const exit = await gateway.endInput();
    return { response, exit: { code: exit.code, signal: exit.signal } };
  } finally {
    await gateway.kill();
  }
}

async function rawStreamableInitialize(
  baseUrl: string,
  protocolVersion: string,
): Promise<RawInitializeOutcome> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initializeRequest(1, protocolVersion)),
  });
  const sessionId = res.headers.get('mcp-session-id');
  const contentType = res.headers.get('content-type') ?? '';
  let response: Record<string, unknown>;
  if (contentType.includes('text/event-stream')) {
    if (!res.body) throw new Error('SSE answer without a body');
    const event = await nextEvent(sseEvents(res.body), (e) => e.event === 'message');
    response = JSON.parse(event.data) as Record<string, unknown>;
  } else {
    response = (await res.json()) as Record<string, unknown>;
  }
  if (sessionId) {
    const deleted = await fetch(`${baseUrl}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    await deleted.arrayBuffer();
  }
  return { response };
}

async function rawLegacyInitialize(
  baseUrl: string,
  protocolVersion: string,
): Promise<RawInitializeOutcome> {
  const controller = new AbortController();
  try {
    const stream = await fetch(`${baseUrl}/sse`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (!stream.body) throw new Error('GET /sse answered without a body');
    const events = sseEvents(stream.body);
    const endpoint = await nextEvent(events, (e) => e.event === 'endpoint');
    const posted = await fetch(new URL(endpoint.data, baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(initializeRequest(7, protocolVersion)),
    });
    await posted.arrayBuffer();
    if (posted.status !== 202) throw new Error(`POST ${endpoint.data} answered ${posted.status}`);
    const answer = await nextEvent(
      events,
      (e) => e.event === 'message' && (JSON.parse(e.data) as { id?: unknown }).id === 7,
    );
    return { response: JSON.parse(answer.data) as Record<string, unknown> };
  } finally {
    // Dropping the stream ends the legacy session.
    controller.abort();
  }
}

interface SseEvent {
  event: string;
  data: string;
}

async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}

async function nextEvent(
  events: AsyncGenerator<SseEvent>,
  test: (e: SseEvent) => boolean,
  timeoutMs = 10_000,
): Promise<SseEvent> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out waiting for an SSE event')), timeoutMs);
  });
  try {
    return await Promise.race([
      (async () => {
        for (;;) {
          const next = await events.next();
          if (next.done) throw new Error('SSE stream ended before the expected event');
          if (test(next.value)) return next.value;
        }
      })(),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
