import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ClientSlots } from '../common/client-slots';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded, LimitName } from '../errors/limit-exceeded';
import { McpMetrics } from '../observability/mcp.metrics';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { McpSession, SessionTransport } from './mcp-session';
import { NO_PEERS } from './session-peers';
import { SessionBus, SessionEvent } from './shared/session-bus';
import { applySessionRecord, sessionRecordOf } from './shared/session-record';
import { SharedSessionStore } from './shared/shared-session.store';

/**
 * Live sessions of this process; idle ones expire after
 * `sessions.idle_ttl_seconds`. HTTP sessions (Streamable and legacy SSE) are
 * capped per client id and in total (`limits.sessions_*`); the one stdio
 * session of a process is not.
 *
 * With `state.driver: redis` HTTP sessions are shared by the replicas: the
 * negotiated state is a record in Redis (SharedSessionStore), any replica
 * serves any request of the session through a local copy made from it
 * (find), and what only one replica can do (write to the stream it holds,
 * settle the server request it sent, cancel the request it runs) travels on
 * the SessionBus. Dropping a local copy (idle, shutdown) leaves the session
 * to the others; only DELETE, a failed initialize or the record's own idle
 * expiry ends it.
 */
@Injectable()
export class SessionRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionRegistry.name);
  private readonly sessions = new Map<string, McpSession>();
  private readonly slots: ClientSlots;
  /** Sessions holding a slot of `slots`. */
  private readonly capped = new WeakSet<McpSession>();
  private sweeper?: NodeJS.Timeout;
  /** Sessions other replicas may serve too, with when their shared record was last touched. */
  private readonly shared = new WeakMap<McpSession, number>();
  /** Copies being made from shared records, so that concurrent requests make one. */
  private readonly copying = new Map<string, Promise<McpSession | undefined>>();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly metrics: McpMetrics,
    private readonly store: SharedSessionStore,
    private readonly bus: SessionBus,
  ) {
    this.slots = new ClientSlots(config.limits.sessions_per_client, config.limits.sessions_total);
  }

  onModuleInit(): void {
    const ttlMs = this.config.sessions.idle_ttl_seconds * 1000;
    this.sweeper = setInterval(() => this.sweep(ttlMs), Math.min(ttlMs / 2, 60_000));
    // The sweeper must never keep a finished process alive.
    this.sweeper.unref();
    this.bus.onEvent((event) => this.onPeerEvent(event));
  }

  /**
   * After the HTTP server drained (in-flight requests answered), whatever is
   * left is closed here; shared sessions go on at the other replicas.
   */
  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    for (const session of [...this.sessions.values()]) this.forget(session);
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
    // A session of the gateway's own (uncapped: the skill mirror's) lives within one request.
    const shared = capped && this.store.enabled;
    const session = new McpSession(
      transport,
      clientId,
      options.owner,
      shared ? this.bus : NO_PEERS,
    );
    if (capped) this.capped.add(session);
    if (shared) this.shared.set(session, 0);
    this.sessions.set(session.id, session);
    this.metrics.sessionOpened(transport);
    return session;
  }

  /**
   * Lists a request-scoped session (a 2026-07-28 subscriptions/listen) among
   * this replica's sessions while its request runs, so that what is sent to
   * every session (list_changed, resource updates) reaches its stream too. It
   * holds no session slot and is shared with no replica (its stream's cap is
   * `limits.sse_streams_*`). Returns the function that lists it no more.
   */
  track(session: McpSession): () => void {
    this.sessions.set(session.id, session);
    return () => {
      if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    };
  }

  /** Whether other replicas may serve the session too (its streams may have been held elsewhere). */
  isShared(session: McpSession): boolean {
    return this.shared.has(session);
  }

  get(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /**
   * The session, from this replica or, when sessions are shared, made here
   * from its record (undefined when neither has it). Throws
   * SessionStoreUnavailable when Redis cannot say whether it exists.
   */
  async find(id: string): Promise<McpSession | undefined> {
    const local = this.sessions.get(id);
    if (local || !this.store.enabled) return local;
    let copy = this.copying.get(id);
    if (!copy) {
      copy = this.copyFromRecord(id).finally(() => this.copying.delete(id));
      this.copying.set(id, copy);
    }
    return copy;
  }

  /**
   * Shares the session's negotiated state (after initialize, or a change such
   * as logging/setLevel) with the other replicas, before the client hears the
   * answer, so that its next request may go anywhere.
   */
  async persist(session: McpSession): Promise<void> {
    if (!this.shared.has(session) || session.closed) return;
    const record = sessionRecordOf(session);
    // Awaited: the other replicas' copies must have the change on its way before the client hears the answer.
    if (await this.store.save(record)) await this.bus.publishDelivered({ kind: 'updated', record });
    this.shared.set(session, Date.now());
  }

  /** Marks activity: locally at once, in the shared record at most every tenth of the idle TTL. */
  touch(session: McpSession, now = Date.now()): void {
    session.touch();
    const touched = this.shared.get(session);
    if (touched === undefined || now - touched < this.touchIntervalMs()) return;
    this.shared.set(session, now);
    this.store.touch(session.id);
  }

  /** Ends the session everywhere: closes it here (aborting what it runs) and at every replica. */
  remove(id: string): boolean {
    const session = this.sessions.get(id);
    if (!session) return false;
    if (this.shared.has(session)) void this.removeShared(id);
    this.forget(session);
    return true;
  }

  /**
   * Ends a session at its client's request (HTTP DELETE): settles once the
   * shared record is gone and the other replicas were told, so the client's
   * next request, wherever the balancer sends it, finds the session ended.
   */
  async terminate(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    const shared = this.shared.has(session);
    this.forget(session);
    if (shared) await this.removeShared(id);
    return true;
  }

  private async removeShared(id: string): Promise<void> {
    await Promise.all([
      this.store.remove(id),
      this.bus.publishDelivered({ kind: 'closed', sessionId: id }),
    ]);
  }

  /** Closes this replica's copy (aborting what it runs here); a shared session lives on elsewhere. */
  private forget(session: McpSession): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    if (this.capped.delete(session)) this.slots.release(session.clientId);
    session.close();
    this.metrics.sessionClosed(session.transport);
  }

  private async copyFromRecord(id: string): Promise<McpSession | undefined> {
    const record = await this.store.load(id);
    if (!record) return undefined;
    // Another request may have made or opened it here meanwhile.
    const existing = this.sessions.get(id);
    if (existing) return existing;
    const session = new McpSession(record.transport, record.clientId, record.owner, this.bus, id);
    applySessionRecord(session, record);
    this.shared.set(session, Date.now());
    this.sessions.set(id, session);
    this.metrics.sessionOpened(session.transport);
    return session;
  }

  private onPeerEvent(event: SessionEvent): void {
    if (event.kind === 'updated') {
      const session = this.sessions.get(event.record.id);
      if (session) applySessionRecord(session, event.record);
      return;
    }
    const session = this.sessions.get(event.sessionId);
    if (!session) return;
    if (event.kind === 'deliver') session.sendOnLocalStream(event.message);
    else if (event.kind === 'response') session.resolveLocalResponse(event.response);
    else if (event.kind === 'cancel') session.cancelLocalRequest(event.requestId, event.reason);
    else this.forget(session);
  }

  private touchIntervalMs(): number {
    return (this.config.sessions.idle_ttl_seconds * 1000) / 10;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** This replica's sessions (its copies of shared ones included). */
  sessionsHere(): IterableIterator<McpSession> {
    return this.sessions.values();
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

  /** Expires idle sessions; shared sessions whose stream is held here stay alive in Redis too. */
  private sweep(ttlMs: number): void {
    this.expireIdle(ttlMs);
    for (const session of this.sessions.values()) {
      if (this.shared.has(session) && session.hasStandaloneStream()) this.store.touch(session.id);
    }
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
        // A shared session may be in use at another replica: only this copy goes.
        if (this.shared.has(session)) this.forget(session);
        else this.remove(session.id);
        expired++;
      }
    }
    return expired;
  }
}
