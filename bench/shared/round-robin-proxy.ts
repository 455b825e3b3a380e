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
  ) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** `recordServed: false` under load (the bench), where the list would only grow. */
  static async start(
    backends: string[],
    { recordServed = true }: { recordServed?: boolean } = {},
  ): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, backends, recordServed);
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
    req.on('end', () => this.attempt(req, res, Buffer.concat(chunks), this.backends.length));
  }

  private attempt(req: IncomingMessage, res: ServerResponse, body: Buffer, triesLeft: number) {
    if (triesLeft === 0) {
      res.writeHead(502).end('no backend accepted the connection');
      return;
    }
    const index = this.next++ % this.backends.length;
    const target = new URL(req.url ?? '/', this.backends[index]);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        if (this.recordServed) this.served.push({ method: req.method ?? '', backend: index });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        res.on('close', () => answer.destroy());
      },
    );
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' && !res.headersSent) {
        this.attempt(req, res, body, triesLeft - 1);
        return;
      }
      res.destroy(err);
    });
    upstream.end(body);
  }
}
