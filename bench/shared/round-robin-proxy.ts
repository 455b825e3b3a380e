import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer without session affinity, for replica tests and the bench's
 * replicas section: each request goes to the next backend in turn, bodies and
 * SSE streams piped through. A backend that refuses the connection (stopped,
 * killed) is skipped for that request, as a balancer's health check would; a
 * request none accepts gets 502.
 */
export class RoundRobinProxy {
  /** Which backend served each request, in order: what the test asserts alternation with. */
  readonly served: Array<{ method: string; backend: number }> = [];
  private next = 0;

  private constructor(
    private readonly server: Server,
    readonly backends: string[],
    private readonly recordServed: boolean,
    private readonly keepAlive: boolean,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * `recordServed: false` under load (the bench), where the list would only
   * grow. `keepAlive: false` opens a connection per request, as a balancer
   * does towards a backend that is being restarted: a pooled connection the
   * backend closes while idle could otherwise meet a request (a reset that
   * no balancer may retry for a POST).
   */
  static async start(
    backends: string[],
    { recordServed = true, keepAlive = true }: { recordServed?: boolean; keepAlive?: boolean } = {},
  ): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, backends, recordServed, keepAlive);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => proxy.forward(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    // The body is read first, so that a refused backend can be skipped and the request sent again.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    const first = this.next++ % this.backends.length;
    req.on('end', () => this.attempt(req, res, Buffer.concat(chunks), first, 0));
  }

  /** Tries the backends from `first` on, each once, whatever other requests do meanwhile. */
  private attempt(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    first: number,
    tried: number,
  ) {
    if (tried === this.backends.length) {
      res.writeHead(502).end('no backend accepted the connection');
      return;
    }
    const index = (first + tried) % this.backends.length;
    const target = new URL(req.url ?? '/', this.backends[index]);
    const upstream = request(
      target,
      {
        method: req.method,
        headers: { ...req.headers, host: target.host },
        ...(this.keepAlive ? {} : { agent: false }),
      },
      (answer) => {
        if (this.recordServed) this.served.push({ method: req.method ?? '', backend: index });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        res.on('close', () => answer.destroy());
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' && !res.headersSent) {
        this.attempt(req, res, body, first, tried + 1);
        return;
      }
      res.destroy(err);
    });
    upstream.end(body);
  }
}
