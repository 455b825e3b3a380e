import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ClientSlots } from '../common/client-slots';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded, LimitName } from '../errors/limit-exceeded';
import { McpMetrics } from '../observability/mcp.metrics';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { McpSession, SessionTransport } from './mcp-session';

/**
 * Live sessions of this process. Sessions hold open streams and in-flight
 * requests, so they are process-local by nature; idle ones expire after
 * `sessions.idle_ttl_seconds`. HTTP sessions (Streamable and legacy SSE) are
 * capped per client id and in total (`limits.sessions_*`); the one stdio
 * session of a process is not.
 */
@Injectable()
export class SessionRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionRegistry.name);
  private readonly sessions = new Map<string, McpSession>();
  private readonly slots: ClientSlots;
  /** Sessions holding a slot of `slots`. */
  private readonly capped = new WeakSet<McpSession>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {
    this.slots = new ClientSlots(config.limits.sessions_per_client, config.limits.sessions_total);
  }

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

  /**
   * Throws the limit's GatewayError (nothing created) when the client or the
   * gateway is full. `capped: false` is for a session that lives within one
   * request of the gateway's own (the skill mirror) and holds nothing of the client's.
   */
  create(
    transport: SessionTransport,
    clientId: string,
    options: { capped?: boolean; owner?: string } = {},
  ): McpSession {
    const capped = options.capped ?? transport !== 'stdio';
    if (capped) this.takeSlot(clientId);
    const session = new McpSession(transport, clientId, options.owner);
    if (capped) this.capped.add(session);
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
    if (this.capped.delete(session)) this.slots.release(session.clientId);
    session.close();
    this.metrics.sessionClosed(session.transport);
    return true;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Sessions, requests in flight and open standalone streams, for the shutdown report. */
  openWork(): { sessions: number; requestsInFlight: number; streams: number } {
    let requestsInFlight = 0;
    let streams = 0;
    for (const session of this.sessions.values()) {
      requestsInFlight += session.inflightCount;
      if (session.hasStandaloneStream()) streams++;
    }
    return { sessions: this.sessions.size, requestsInFlight, streams };
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

  private takeSlot(clientId: string): void {
    const refusal = this.slots.acquire(clientId);
    if (refusal === undefined) return;
    const limit: LimitName = refusal === 'per_client' ? 'sessions_per_client' : 'sessions_total';
    this.metrics.recordLimitRefusal(limit);
    this.logger.warn({ msg: 'session refused', clientId, limit: `limits.${limit}` });
    throw limitExceeded(
      ErrorCode.InvalidRequest,
      limit,
      this.config.limits[limit],
      refusal === 'per_client'
        ? 'Another session for this client'
        : 'Another session on this gateway',
      // A slot frees when a session of the client is deleted or expires.
      { retryable: true },
    );
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
