import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ShutdownState } from '../../health/shutdown.state';
import { DrainableListener } from './drainable-listener';
import { SseHub } from './sse.hub';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** How long a client whose stream the drain ended waits before it reconnects (to another replica). */
export const DRAIN_RETRY_MS = 1_000;

/**
 * The stop of an HTTP gateway behind a load balancer, at SIGTERM or SIGINT:
 * readiness fails at once while traffic is served as usual for
 * `http.drain_delay_seconds`; then the listener closes, held SSE streams end
 * with a retry hint, the open connections finish their calls, the app closes
 * (the ledger flushes) and the process exits 0. A repeated signal changes
 * nothing; `limits.shutdown_deadline_seconds` bounds the whole stop.
 */
@Injectable()
export class GracefulDrain implements OnApplicationShutdown {
  private readonly logger = new Logger('Drain');
  private stopping = false;
  private closeApp?: () => Promise<void>;
  private listener?: DrainableListener;
  private readonly onSignal = (signal: NodeJS.Signals) => void this.stop(signal);

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly state: ShutdownState,
    private readonly hub: SseHub,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * Takes over SIGTERM and SIGINT; `closeApp` is the app's own close (hooks,
   * ledger). Call it once the server's request handler is installed.
   */
  listen(closeApp: () => Promise<void>): void {
    this.closeApp = closeApp;
    this.listener = new DrainableListener(this.adapterHost.httpAdapter.getHttpServer() as Server);
    this.listener.track();
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  /** A closed app stops listening, unless a signal is stopping the process (a repeat must not kill it). */
  onApplicationShutdown(): void {
    if (this.stopping) return;
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
  }

  private async stop(signal: NodeJS.Signals): Promise<void> {
    if (this.stopping || this.closeApp === undefined || this.listener === undefined) return;
    this.stopping = true;
    try {
      await this.drain(signal, this.listener);
      await this.closeApp();
      this.logger.log({ msg: 'drain done' });
      process.exit(0);
    } catch (err) {
      this.logger.error({
        msg: 'shutdown failed',
        error: err instanceof Error ? err.message : String(err),
      });
      process.exit(1);
    }
  }

  private async drain(signal: NodeJS.Signals, listener: DrainableListener): Promise<void> {
    const delaySeconds = this.config.http.drain_delay_seconds;
    this.state.startDraining();
    this.logger.log({ msg: 'draining started', signal, delaySeconds });
    if (delaySeconds > 0) await delay(delaySeconds * 1000);
    const connectionsEnded = listener.close();
    this.logger.log({ msg: 'listener closed' });
    const streams = this.hub.endHeldStreams(DRAIN_RETRY_MS);
    this.logger.log({ msg: 'streams closed', streams });
    await connectionsEnded;
  }
}
