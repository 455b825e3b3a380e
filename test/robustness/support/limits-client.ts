import { readdirSync, readFileSync } from 'node:fs';
import { Agent, IncomingHttpHeaders, request } from 'node:http';
import { connect, Socket } from 'node:net';

const MiB = 1024 * 1024;

/** Resident set size of a process, from /proc/<pid>/status (Linux). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}

/** Open file descriptors of a process (sockets included). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The soft limit on a process's open file descriptors, from /proc/<pid>/limits (Linux). */
export function fdLimit(pid: number): number {
  const match = /^Max open files\s+(\d+|unlimited)/m.exec(
    readFileSync(`/proc/${pid}/limits`, 'utf8'),
  );
  if (!match) throw new Error(`no open-files limit for pid ${pid}`);
  return match[1] === 'unlimited' ? Infinity : Number(match[1]);
}

export function mib(bytes: number): string {
  return `${(bytes / MiB).toFixed(1)} MiB`;
}

/** Samples a process's RSS while something runs; `peakGrowth` is the highest sample over the first. */
export class RssSampler {
  readonly before: number;
  peak: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly pid: number,
    intervalMs = 20,
  ) {
    this.before = rssBytes(pid);
    this.peak = this.before;
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): number {
    const now = rssBytes(this.pid);
    if (now > this.peak) this.peak = now;
    return now;
  }

  stop(): { before: number; peak: number; after: number; peakGrowth: number } {
    clearInterval(this.timer);
    const after = this.sample();
    return { before: this.before, peak: this.peak, after, peakGrowth: this.peak - this.before };
  }
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  ms: number;
  /** The request was sent again on a new connection (see httpRequest). */
  retried: boolean;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: Agent | false;
  timeoutMs?: number;
}

/**
 * One HTTP request on `agent` (or a connection of its own), with a hard time
 * limit. A reset of a reused keep-alive connection is retried, as the
 * Node documentation advises: the server may close an idle connection just
 * as the client sends on it (its keep-alive timeout), which says nothing
 * about the request itself.
 */
export async function httpRequest(url: string, options: RequestOptions = {}): Promise<RawAnswer> {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await requestOnce(url, options);
      return attempt === 1 ? answer : { ...answer, retried: true };
    } catch (err) {
      // The next free socket may be just as stale: a few attempts, no more.
      if ((err as StaleSocketError).staleSocket !== true || attempt >= 4) throw err;
    }
  }
}

interface StaleSocketError extends Error {
  staleSocket?: boolean;
}

function requestOnce(url: string, options: RequestOptions): Promise<RawAnswer> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: options.agent ?? false,
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.once('error', (err: NodeJS.ErrnoException & StaleSocketError) => {
      clearTimeout(timer);
      if (req.reusedSocket && err.code === 'ECONNRESET') err.staleSocket = true;
      reject(err);
    });
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          ms: Date.now() - started,
          retried: false,
        });
      });
      res.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.end(options.body);
  });
}

export interface StreamedUpload {
  status: number;
  text: string;
  /** Milliseconds until the response arrived. */
  ms: number;
  /** Body bytes handed to the socket before the response arrived. */
  sentBeforeResponse: number;
  /** Body bytes handed to the socket in all. */
  sent: number;
  /** A socket error after the response (the server closing the connection mid-upload). */
  clientError?: string;
}

/**
 * Streams `total` bytes of body (64 KiB chunks, honouring backpressure)
 * until the server answers or closes; with `declareLength` the length is
 * announced up front, otherwise the body is chunked.
 */
export function streamUpload(
  url: string,
  total: number,
  declareLength: boolean,
  headers: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<StreamedUpload> {
  const started = Date.now();
  // JSON whitespace: were it all read, it would still be no message at all.
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(declareLength ? { 'content-length': String(total) } : {}),
        ...headers,
      },
    });
    let sent = 0;
    let sentBeforeResponse = -1;
    let stopped = false;
    let clientError: string | undefined;
    const timer = setTimeout(() => {
      stopped = true;
      req.destroy();
      reject(new Error(`no answer to the upload within ${timeoutMs} ms (${sent} bytes sent)`));
    }, timeoutMs);
    req.on('error', (err) => {
      stopped = true;
      clientError = err.message;
      if (sentBeforeResponse === -1) {
        clearTimeout(timer);
        reject(new Error(`upload failed before any answer (${sent} bytes sent): ${err.message}`));
      }
    });
    req.once('response', (res) => {
      sentBeforeResponse = sent;
      stopped = true;
      const ms = Date.now() - started;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => (text += part));
      const done = () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, text, ms, sentBeforeResponse, sent, clientError });
      };
      res.once('end', done);
      res.once('error', done);
    });
    const pump = () => {
      while (!stopped && sent < total) {
        const part = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
        sent += part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!stopped) req.end();
    };
    pump();
  });
}

/**
 * A GET /mcp SSE stream whose client stops reading: the request goes out on
 * a raw socket, the answer's first bytes (status line and headers) are read,
 * then nothing more, so the kernel buffers fill and the server sees a peer
 * that has stopped reading. Resolves once the server has answered 200.
 */
export function openStalledSse(
  baseUrl: string,
  headers: Record<string, string>,
): Promise<{ socket: Socket; closed: Promise<void> }> {
  const url = new URL('/mcp', baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const lines = [
        `GET ${url.pathname} HTTP/1.1`,
        `Host: ${url.host}`,
        'Accept: text/event-stream',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        '',
        '',
      ];
      socket.write(lines.join('\r\n'));
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('error', reject);
    // After the answer, a reset by the server is the expected end.
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      // Never resumed: nothing more is read than what the socket buffer already holds.
      socket.pause();
      const status = chunk.toString('latin1').split('\r\n')[0];
      if (status === 'HTTP/1.1 200 OK') resolve({ socket, closed });
      else {
        socket.destroy();
        reject(new Error(`GET /mcp answered ${status}`));
      }
    });
  });
}

export interface IgnoredAnswer {
  /** The status line the server answered with ('' if none). */
  statusLine: string;
  /** Milliseconds from the answer until the server closed the connection (-1: it never did). */
  cutAfterMs: number;
  sent: number;
}

/**
 * A client on a raw socket that streams a chunked body, gets its answer and
 * goes on sending anyway (`chunkBytes` every `everyMs`, for at most `maxMs`):
 * resolves once the server closes the connection, or when the time is up.
 */
export function uploadIgnoringAnswer(
  baseUrl: string,
  headers: Record<string, string>,
  chunkBytes: number,
  everyMs: number,
  maxMs: number,
): Promise<IgnoredAnswer> {
  const url = new URL('/mcp', baseUrl);
  const frame = Buffer.concat([
    Buffer.from(`${chunkBytes.toString(16)}\r\n`),
    Buffer.alloc(chunkBytes, 0x20),
    Buffer.from('\r\n'),
  ]);
  return new Promise((resolve) => {
    let sent = 0;
    let received = '';
    let answeredAt = 0;
    let settled = false;
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        [
          `POST ${url.pathname} HTTP/1.1`,
          `Host: ${url.host}`,
          'Content-Type: application/json',
          'Transfer-Encoding: chunked',
          ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
          '',
          '',
        ].join('\r\n'),
      );
    });
    const done = (cut: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      socket.destroy();
      resolve({
        statusLine: received.split('\r\n')[0] ?? '',
        cutAfterMs: cut && answeredAt ? Date.now() - answeredAt : -1,
        sent,
      });
    };
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > maxMs) return done(false);
      if (!socket.destroyed && socket.writable) {
        socket.write(frame);
        sent += chunkBytes;
      }
    }, everyMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (!answeredAt && received.includes('\r\n\r\n')) answeredAt = Date.now();
    });
    socket.on('error', () => done(true));
    socket.on('close', () => done(true));
  });
}
