import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy in front of a test authorization server that counts the requests per
 * path, so a test can bound how often the gateway fetches a JWKS. It presents itself as an issuer
 * of its own (the upstream's URL is replaced by the proxy's in every answer), so the gateway
 * discovers the proxy's metadata and fetches its keys through it; tokens must name the proxy as `iss`.
 */
export class CountingIssuerProxy {
  private readonly counts = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(upstreamIssuer: string): Promise<CountingIssuerProxy> {
    let proxy: CountingIssuerProxy | undefined;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?', 1)[0];
      proxy!.counts.set(path, proxy!.requests(path) + 1);
      fetch(`${upstreamIssuer}${req.url ?? '/'}`, {
        method: req.method === 'HEAD' ? 'HEAD' : 'GET',
      })
        .then(async (answer) => {
          const body = (await answer.text()).split(upstreamIssuer).join(proxy!.issuer);
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(body);
        })
        .catch(() => res.writeHead(502).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new CountingIssuerProxy(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    );
    return proxy;
  }

  /** How many requests for `path` (e.g. `/jwks`) the proxy has seen. */
  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
