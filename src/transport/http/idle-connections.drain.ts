import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

/** How often a closing server looks for connections that went idle. */
const SWEEP_MS = 100;

/**
 * While the HTTP server closes, Node ends the connections idle at that moment
 * only: one whose last response goes out later (a call that was still running)
 * would hold the stop for its whole keep-alive timeout. This ends each such
 * connection as soon as it is idle, so a graceful stop takes as long as the
 * work in flight and no longer.
 */
@Injectable()
export class IdleConnectionsDrain implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  beforeApplicationShutdown(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server === undefined) return;
    // Sweeps only once the server stopped listening: until then idle connections may still be reused.
    const sweep = setInterval(() => {
      if (!server.listening) server.closeIdleConnections();
    }, SWEEP_MS);
    sweep.unref();
    server.once('close', () => clearInterval(sweep));
  }
}
