import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { McpMetrics } from '../observability/mcp.metrics';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { McpSession, SessionTransport } from './mcp-session';

/**
 * Live sessions of this process. Sessions hold open streams and in-flight
 * requests, so they are process-local by nature; idle ones expire after
 * `sessions.idle_ttl_seconds`.
 */
@Injectable()
export class SessionRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionRegistry.name);
  private readonly sessions = new Map<string, McpSession>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {}

  onModuleInit(): void {
    const ttlMs = this.config.sessions.idle_ttl_seconds * 1000;
    this.sweeper = setInterval(() => this.expireIdle(ttlMs), Math.min(ttlMs / 2, 60_000));
    // The sweeper must never keep a finished process alive.
    this.sweeper.unref();
  }

  /** After the HTTP server drained (in-flight requests answered), whatever is left is closed. */
  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    for (const session of [...this.sessions.values()]) this.remove(session.id);
  }

  create(transport: SessionTransport, clientId: string): McpSession {
    const session = new McpSession(transport, clientId);
    this.sessions.set(session.id, session);
    this.metrics.sessionOpened(transport);
    return session;
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /** Closes the session (aborting what it runs) and forgets it. */
  remove(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    session.close();
    this.metrics.sessionClosed(session.transport);
    return true;
  }

  get size(): number {
    return this.sessions.size;
  }

  countByTransport(): Map<SessionTransport, number> {
    const counts = new Map<SessionTransport, number>();
    for (const session of this.sessions.values()) {
      counts.set(session.transport, (counts.get(session.transport) ?? 0) + 1);
    }
    return counts;
  }

  /** Sends a notification to every initialized session's standalone stream. */
  broadcast(method: string, params?: JsonRpcParams): number {
    let delivered = 0;
    for (const session of this.sessions.values()) {
      if (session.initialized && session.notify(method, params)) delivered++;
    }
    return delivered;
  }

  expireIdle(ttlMs: number, now = Date.now()): number {
    let expired = 0;
    for (const session of [...this.sessions.values()]) {
      if (session.transport === 'stdio' || session.busy) continue;
      if (now - session.lastActivity >= ttlMs) {
        this.logger.log({
          msg: 'session expired',
          sessionId: session.id,
          clientId: session.clientId,
        });
        this.remove(session.id);
        expired++;
      }
    }
    return expired;
  }
}
