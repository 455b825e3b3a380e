import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceRedis } from '../../governance/redis/governance-redis';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { SessionBus } from '../../session/shared/session-bus';
import { SharedSessionStore } from '../../session/shared/shared-session.store';
import { SSE_REPLAY_MAX_EVENTS, SseEventRecord } from './sse-event-log';

/** An event larger than this is not copied to Redis; resuming across it is refused instead. */
const MAX_SHARED_EVENT_BYTES = 256 * 1024;

interface SharedEvent {
  id: string;
  /** Absent for an event too large to keep: the gap a resume cannot cross. */
  data?: string;
}

/**
 * The standalone GET /mcp stream's events of shared sessions, kept in Redis
 * as well as in the replica's own log, so that a client whose stream ended
 * with its replica (a drain, a crash) can reopen it at any replica with
 * Last-Event-ID and get what it missed (SEP-1699 across replicas). The list
 * holds the newest SSE_REPLAY_MAX_EVENTS events and expires with the session.
 * Each replica writes under its own standalone stream id (`g<replica>`), so
 * event ids never collide between replicas.
 */
@Injectable()
export class SharedStandaloneLog {
  private readonly logger = new Logger('SharedSessions');
  private readonly ttlMs: number;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly sessions: SessionRegistry,
    private readonly store: SharedSessionStore,
    private readonly bus: SessionBus,
    @Optional() private readonly redis?: GovernanceRedis,
  ) {
    this.ttlMs = config.sessions.idle_ttl_seconds * 1000;
  }

  /** What this replica puts in a session's stream ids: its own id when the session is shared, else nothing. */
  replicaTagFor(session: McpSession): string {
    return this.sessions.isShared(session) ? this.bus.replicaId : '';
  }

  /** Copies an event the stream just sent; only for shared sessions. */
  mirror(session: McpSession, record: SseEventRecord): void {
    const client = this.redis?.client;
    if (!client || !this.sessions.isShared(session)) return;
    const event: SharedEvent =
      record.data.length <= MAX_SHARED_EVENT_BYTES
        ? { id: record.id, data: record.data }
        : { id: record.id };
    const key = this.store.key(session.id, 'events');
    client
      .multi()
      .rpush(key, JSON.stringify(event))
      .ltrim(key, -SSE_REPLAY_MAX_EVENTS, -1)
      .pexpire(key, this.ttlMs)
      .exec()
      .catch((err: unknown) =>
        this.logger.warn({
          msg: 'stream event not shared',
          sessionId: session.id,
          error: String(err),
        }),
      );
  }

  /**
   * The standalone events sent after `lastEventId` by whichever replica held
   * the stream, oldest first; undefined when the id is not among the kept
   * events or an event after it was too large to keep.
   */
  async after(session: McpSession, lastEventId: string): Promise<SseEventRecord[] | undefined> {
    const client = this.redis?.client;
    if (!client || !this.sessions.isShared(session)) return undefined;
    const entries = (await client.lrange(this.store.key(session.id, 'events'), 0, -1)).map(
      (text) => JSON.parse(text) as SharedEvent,
    );
    const at = entries.findIndex((event) => event.id === lastEventId);
    if (at === -1) return undefined;
    const missed = entries.slice(at + 1);
    if (missed.some((event) => event.data === undefined)) return undefined;
    return missed.map((event, index) => ({
      id: event.id,
      streamId: event.id.split('/', 1)[0],
      seq: index,
      data: event.data!,
    }));
  }
}
