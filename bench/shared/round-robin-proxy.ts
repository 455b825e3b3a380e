import { createServer, get, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The JSON-RPC messages of a POST body, as a test names them: a request's method and id, a response's id. */
export interface RpcSummary {
  method?: string;
  id?: string | number | null;
}

/** One request the proxy passed to a backend. */
export interface ProxiedRequest {
  method: string;
  backend: number;
  /** What a POST carried (empty for GET and DELETE, or a body that is not JSON-RPC). */
  rpc: RpcSummary[];
  /** Whether the request carried Last-Event-ID (a stream being resumed). */
  resuming: boolean;
  /** The backend's HTTP status, once its answer began. */
  status?: number;
}

/**
 * A load balancer without session affinity, for replica tests and the bench's
 * replicas section: each request goes to the next backend in turn, bodies and
 * SSE streams piped through. A backend that refuses the connection (stopped,
 * killed) is skipped for that request, as a balancer's health check would; a
 * request none accepts gets 502. A backend that dies mid-answer cuts the
 * client's connection too, as a real balancer does. With `readinessPath`, it
 * also probes each backend's readiness, as Kubernetes does, and sends nothing
 * to one that is not ready while another is.
 */
export class RoundRobinProxy {
  /** Requests sent to a backend, in order, whether or not it has answered yet. */
  readonly forwarded: ProxiedRequest[] = [];
  /** Which backend served each request (its answer began), in order: what tests assert routing with. */
  readonly served: ProxiedRequest[] = [];
  private next = 0;
  /** Each backend's last readiness verdict (all ready until a probe says otherwise). */
  private readonly ready: boolean[];
  private probes?: NodeJS.Timeout;

  private constructor(
    private readonly server: Server,
    readonly backends: string[],
    private readonly recordServed: boolean,
    private readonly keepAlive: boolean,
  ) {
    this.ready = backends.map(() => true);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The backend the next request will be sent to (if it accepts the connection). */
  get nextBackend(): number {
    return this.next % this.backends.length;
  }

  /**
   * `recordServed: false` under load (the bench), where the lists would only
   * grow. `keepAlive: false` opens a connection per request, as a balancer
   * does towards a backend that is being restarted: a pooled connection the
   * backend closes while idle could otherwise meet a request (a reset that
   * no balancer may retry for a POST). `readinessPath` (e.g. `/health/ready`)
   * is probed on every backend each `probeIntervalMs`: without it, a backend
   * that is draining still gets new connections until its listener closes,
   * and one that arrives as the listener closes is reset, which a balancer
   * that honours readiness never sees.
   */
  static async start(
    backends: string[],
    {
      recordServed = true,
      keepAlive = true,
      readinessPath,
      probeIntervalMs = 100,
    }: {
      recordServed?: boolean;
      keepAlive?: boolean;
      readinessPath?: string;
      probeIntervalMs?: number;
    } = {},
  ): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, backends, recordServed, keepAlive);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => proxy.forward(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    if (readinessPath !== undefined) proxy.probeReadiness(readinessPath, probeIntervalMs);
    return proxy;
  }

  async stop(): Promise<void> {
    clearInterval(this.probes);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The latest request that carried the JSON-RPC message with this method (or, for a response, this id). */
  servedFor(match: RpcSummary): ProxiedRequest | undefined {
    return this.served.findLast((r) =>
      r.rpc.some((m) => m.method === match.method && (match.id === undefined || m.id === match.id)),
    );
  }

  private probeReadiness(path: string, intervalMs: number): void {
    const probe = (index: number) => {
      const check = get(new URL(path, this.backends[index]), { agent: false }, (answer) => {
        this.ready[index] = answer.statusCode === 200;
        answer.resume();
      });
      check.setTimeout(1_000, () => check.destroy());
      check.on('error', () => (this.ready[index] = false));
    };
    this.probes = setInterval(() => this.backends.forEach((_, index) => probe(index)), intervalMs);
    this.probes.unref();
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    // The body is read first, so that a refused backend can be skipped and the request sent again.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const first = this.next++ % this.backends.length;
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      this.attempt(req, res, body, this.recordServed ? summarize(body) : [], first, 0);
    });
  }

  /** Tries the backends from `first` on, each once, whatever other requests do meanwhile. */
  private attempt(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    rpc: RpcSummary[],
    first: number,
    tried: number,
  ) {
    if (tried === this.backends.length) {
      res.writeHead(502).end('no backend accepted the connection');
      return;
    }
    const index = (first + tried) % this.backends.length;
    if (!this.ready[index] && this.ready.some(Boolean)) {
      this.attempt(req, res, body, rpc, first, tried + 1);
      return;
    }
    const target = new URL(req.url ?? '/', this.backends[index]);
    const entry: ProxiedRequest = {
      method: req.method ?? '',
      backend: index,
      rpc,
      resuming: req.headers['last-event-id'] !== undefined,
    };
    const upstream = request(
      target,
      {
        method: req.method,
        headers: { ...req.headers, host: target.host },
        ...(this.keepAlive ? {} : { agent: false }),
      },
      (answer) => {
        entry.status = answer.statusCode;
        if (this.recordServed) this.served.push(entry);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        res.on('close', () => answer.destroy());
        // A backend killed mid-answer: the client must see its connection end, not wait forever.
        answer.on('close', () => {
          if (!answer.complete) res.destroy();
        });
      },
    );
    if (this.recordServed) this.forwarded.push(entry);
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' && !res.headersSent) {
        if (this.recordServed) this.forwarded.splice(this.forwarded.indexOf(entry), 1);
        this.attempt(req, res, body, rpc, first, tried + 1);
        return;
      }
      res.destroy(err);
    });
    upstream.end(body);
  }
}

function summarize(body: Buffer): RpcSummary[] {
  if (body.length === 0) return [];
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages
      .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null)
      .map((m) => ({
        method: typeof m.method === 'string' ? m.method : undefined,
        id: typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined,
      }));
  } catch {
    return [];
  }
}
