import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * Closes an HTTP server's listener so that no request on an open connection
 * is answered with a reset.
 *
 * `http.Server#close` also cuts the keep-alive connections idle at that
 * moment, and a client may be sending its next request on one. Here only the
 * listening socket closes; every response not started yet (those in flight
 * included) and every later one says `Connection: close`, so each connection
 * closes after its next answer, and one that stays idle closes at the
 * server's keep-alive timeout, past the reuse window its `Keep-Alive: timeout`
 * hint gave the client.
 */
export class DrainableListener {
  /** Responses whose headers may still be written. */
  private readonly unstarted = new Set<ServerResponse>();
  private closing = false;

  constructor(private readonly server: Server) {}

  /** Starts following responses; call once the server's request handler is installed. */
  track(): void {
    this.server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      if (this.closing) return markClose(res);
      this.unstarted.add(res);
      res.once('close', () => this.unstarted.delete(res));
    });
  }

  /** Stops accepting connections; resolves once the open ones have ended. */
  close(): Promise<void> {
    this.closing = true;
    for (const res of this.unstarted) markClose(res);
    this.unstarted.clear();
    return new Promise((resolve) => NetServer.prototype.close.call(this.server, () => resolve()));
  }
}

function markClose(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}
