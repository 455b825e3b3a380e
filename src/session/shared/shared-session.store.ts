import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceRedis } from '../../governance/redis/governance-redis';
import { parseSessionRecord, SessionRecord } from './session-record';
import { sessionsShared } from './sessions-shared';

/** The record could not be read: Redis is away. Not the same as "no such session". */
export class SessionStoreUnavailable extends Error {
  constructor(cause: unknown) {
    super(
      `shared session store unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = 'SessionStoreUnavailable';
  }
}

/**
 * Session records in Redis (`state.driver: redis`), one key per session that
 * expires after `sessions.idle_ttl_seconds` without activity on any replica.
 * With the in-process driver, or `state.sessions: local`, it is off and every
 * call does nothing.
 */
@Injectable()
export class SharedSessionStore {
  private readonly logger = new Logger('SharedSessions');
  private readonly ttlMs: number;
  /** Redis for session records; undefined when sessions stay in this process. */
  private readonly client?: Redis;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Optional() private readonly redis?: GovernanceRedis,
  ) {
    this.ttlMs = config.sessions.idle_ttl_seconds * 1000;
    this.client = sessionsShared(config) ? redis?.client : undefined;
  }

  get enabled(): boolean {
    return this.client !== undefined;
  }

  /** Writes the record; false (logged) when Redis is away: the session then lives on this replica only. */
  async save(record: SessionRecord): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    try {
      await client.set(this.key(record.id), JSON.stringify(record), 'PX', this.ttlMs);
      return true;
    } catch (err) {
      this.logger.warn({ msg: 'session not shared', sessionId: record.id, error: String(err) });
      return false;
    }
  }

  /** The record, undefined when there is none; throws SessionStoreUnavailable when Redis cannot say. */
  async load(id: string): Promise<SessionRecord | undefined> {
    const client = this.client;
    if (!client) return undefined;
    let text: string | null;
    try {
      text = await client.get(this.key(id));
    } catch (err) {
      throw new SessionStoreUnavailable(err);
    }
    const record = parseSessionRecord(text);
    return record?.id === id ? record : undefined;
  }

  /** Restarts the idle countdown; a miss is harmless (the next touch or request repeats it). */
  touch(id: string): void {
    this.client?.pexpire(this.key(id), this.ttlMs).catch(() => undefined);
  }

  /** Deletes the record and every key kept beside it (`session:<id>:...`). */
  async remove(id: string): Promise<void> {
    await this.client?.del(this.key(id), this.key(id, 'events')).catch(() => undefined);
  }

  /** The session's record key, or the key of something kept beside it. */
  key(id: string, part?: string): string {
    const key = `${this.redis!.prefix}session:${id}`;
    return part === undefined ? key : `${key}:${part}`;
  }
}
