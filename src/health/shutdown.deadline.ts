import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:net';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { SessionRegistry } from '../session/session.registry';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Exit status of a stop that the deadline cut short (an orderly stop exits 0). */
export const EXIT_SHUTDOWN_DEADLINE = 1;

/**
 * After SIGTERM or SIGINT the process exits within
 * `limits.shutdown_deadline_seconds`, whatever is still open: a client
 * dribbling a request body, a stream, a hook that hangs. The orderly stop runs
 * unchanged and normally ends first; the timer never keeps the process alive.
 * The bootstraps, which own the process's signals, arm it (listen or arm).
 */
@Injectable()
export class ShutdownDeadline implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private timer?: NodeJS.Timeout;
  private readonly onSignal = (signal: NodeJS.Signals) => this.arm(signal);

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly sessions: SessionRegistry,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Arms the deadline at the first SIGTERM or SIGINT, next to whatever else handles them. */
  listen(): void {
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  /** The armed timer stays: a hook after this one may still hang. */
  onApplicationShutdown(): void {
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
  }

  /** Starts the countdown once, at the first signal. */
  arm(signal: NodeJS.Signals): void {
    if (this.timer) return;
    const seconds = this.config.limits.shutdown_deadline_seconds;
    this.logger.log({ msg: 'shutting down', signal, deadlineSeconds: seconds });
    this.timer = setTimeout(() => this.expire(seconds), seconds * 1000);
    this.timer.unref();
  }

  private expire(seconds: number): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    const exit = (httpConnections?: number) => {
      this.logger.error({
        msg: 'shutdown deadline reached; exiting with work still open',
        deadlineSeconds: seconds,
        cut: { httpConnections, ...this.sessions.openWork() },
      });
      process.exit(EXIT_SHUTDOWN_DEADLINE);
    };
    if (server === undefined) return exit();
    server.getConnections((err, count) => exit(err ? undefined : count));
  }
}
