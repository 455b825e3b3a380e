import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP relay in front of a real service (PostgreSQL), so a test can make the
 * service unreachable for the gateway, as a network cut would, and bring it
 * back on the same port, without touching the service others share.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    public port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort, 0);
    await proxy.listen();
    return proxy;
  }

  /** Cuts every relayed connection and refuses new ones. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /** Accepts connections again, on the same port. */
  async restart(): Promise<void> {
    if (!this.server) await this.listen();
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }
}
