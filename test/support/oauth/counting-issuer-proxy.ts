import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy in front of a test authorization server that counts the requests per
 * path, so a test can bound how often the gateway fetches a JWKS. It presents itself as an issuer
 * of its own (the upstream's URL is replaced by the proxy's in every answer), so the gateway
 * discovers the proxy's metadata and fetches its keys through it; tokens must name the proxy as `iss`.
 */
export class CountingIssuerProxy {
  private readonly counts = new Map<string, number>();
  private readonly server = createServer((req, res) => this.forward(req, res));
  private port = 0;

  private constructor(private readonly upstreamIssuer: string) {}

  static async start(upstreamIssuer: string): Promise<CountingIssuerProxy> {
    const proxy = new CountingIssuerProxy(upstreamIssuer);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as AddressInfo).port;
    return proxy;
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** How many requests for `path` (e.g. `/jwks`) the proxy has seen. */
  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?', 1)[0];
    this.counts.set(path, this.requests(path) + 1);
    fetch(`${this.upstreamIssuer}${req.url ?? '/'}`)
      .then(async (answer) => {
        const body = (await answer.text()).split(this.upstreamIssuer).join(this.issuer);
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        });
        res.end(body);
      })
      .catch(() => res.writeHead(502).end());
  }
}
