import { ClientRequest, IncomingHttpHeaders, IncomingMessage, request } from 'node:http';

export interface SseEvent {
  event: string;
  data: string;
  /** The `id:` field, when the event has one (what Last-Event-ID resumes after). */
  id?: string;
}

export interface SseConnection {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every event received so far, in order (comments such as keep-alives are skipped). */
  readonly events: SseEvent[];
  /** The raw body text so far (for non-SSE answers such as 406/409 JSON errors). */
  readonly text: string;
  /** Resolves once the server ended the response. */
  readonly ended: Promise<void>;
  /** Waits for the first event (already received or future) that matches. */
  next(test: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Client-side abort: destroys the socket. Resolves when it is closed. */
  abort(): Promise<void>;
}

/**
 * A raw HTTP GET (a POST when `body` is given) that reads a Server-Sent
 * Events body as it arrives. No agent, so each connection owns its socket and
 * nothing is pooled or kept alive behind the test's back.
 */
export function openSse(
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(url, {
      method: body === undefined ? 'GET' : 'POST',
      agent: false,
      headers:
        body === undefined
          ? { Accept: 'text/event-stream', ...headers }
          : {
              Accept: 'application/json, text/event-stream',
              'Content-Type': 'application/json',
              ...headers,
            },
    });
    req.once('error', reject);
    req.once('response', (res: IncomingMessage) => {
      req.off('error', reject);
      // After an abort the socket errors with ECONNRESET; that is the point of aborting.
      req.on('error', () => undefined);
      resolve(new Connection(req, res));
    });
    req.end(body);
  });
}

class Connection implements SseConnection {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly events: SseEvent[] = [];
  readonly ended: Promise<void>;
  text = '';
  private buffer = '';
  private waiters: Array<{ test: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }> = [];

  constructor(
    private readonly req: ClientRequest,
    private readonly res: IncomingMessage,
  ) {
    this.status = res.statusCode ?? 0;
    this.headers = res.headers;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.onData(chunk));
    this.ended = new Promise((resolve) => {
      res.once('end', resolve);
      res.once('close', resolve);
      res.once('error', () => resolve());
    });
  }

  next(test: (event: SseEvent) => boolean, timeoutMs = 5_000): Promise<SseEvent> {
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`no matching SSE event within ${timeoutMs} ms; got ${this.text}`));
      }, timeoutMs);
      const done = (event: SseEvent) => {
        clearTimeout(timer);
        resolve(event);
      };
      this.waiters.push({ test, resolve: done });
    });
  }

  abort(): Promise<void> {
    const socket = this.req.socket;
    const closed =
      socket && !socket.destroyed
        ? new Promise<void>((resolve) => socket.once('close', () => resolve()))
        : Promise.resolve();
    this.req.destroy();
    return closed;
  }

  private onData(chunk: string): void {
    this.text += chunk;
    this.buffer += chunk;
    let boundary = this.buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const block = this.buffer.slice(0, boundary);
      this.buffer = this.buffer.slice(boundary + 2);
      this.onBlock(block);
      boundary = this.buffer.indexOf('\n\n');
    }
  }

  private onBlock(block: string): void {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) return;
    const parsed: SseEvent =
      id === undefined ? { event, data: data.join('\n') } : { event, id, data: data.join('\n') };
    this.events.push(parsed);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(parsed)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(parsed);
      }
    }
  }
}

/** The JSON-RPC message carried by a `message` event. */
export function messageOf(event: SseEvent): Record<string, unknown> {
  return JSON.parse(event.data) as Record<string, unknown>;
}
