import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceRedis } from '../../governance/redis/governance-redis';
import { InboundFrame, JsonRpcId, JsonRpcRequest } from '../../json-rpc/json-rpc.types';
import { incomingParent } from '../../observability/tracing/incoming-parent';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { SessionBus } from '../../session/shared/session-bus';

/** Which replica runs a POST stream's requests, and their ids. */
export interface PostStreamRecord {
  origin: string;
  requestIds: JsonRpcId[];
  /**
   * Per request, the trace id its caller named (traceparent header or
   * `_meta.traceparent`), null where it named none; absent when none did.
   */
  traceIds?: (string | null)[];
}

const TRACE_ID = /^[0-9a-f]{32}$/;

/** What one POST's answer tells the records when it turns into a stream and when that ends. */
export interface PostStreamRecorder {
  opened(streamId: string): void;
  finished(streamId: string): void;
}

/**
 * The POST streams of shared sessions that are running, in Redis
 * (`<prefix>stream:<session>:<stream>` -> origin replica and request ids), so
 * that the replica a client resumes such a stream at knows which requests it
 * answers and who runs them. A record is written when the answer turns into a
 * stream (plain JSON answers cost nothing), deleted when the stream ends, and
 * expires after `sessions.idle_ttl_seconds` when its replica died first.
 */
@Injectable()
export class PostStreamRecords {
  private readonly logger = new Logger('SharedSessions');
  private readonly ttlMs: number;
  private readonly maxRequestIds: number;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly sessions: SessionRegistry,
    private readonly bus: SessionBus,
    @Optional() private readonly redis?: GovernanceRedis,
  ) {
    this.ttlMs = config.sessions.idle_ttl_seconds * 1000;
    this.maxRequestIds = config.limits.batch_max_requests;
  }

  /**
   * The recorder for one POST of `session` (its frame, and its `traceparent`
   * header); undefined when no other replica serves the session.
   */
  recorderFor(
    session: McpSession,
    frame: InboundFrame,
    traceparent: string | undefined,
  ): PostStreamRecorder | undefined {
    if (!this.redis?.client || !this.sessions.isShared(session)) return undefined;
    // A batch past the limit is refused before it can stream; the cap keeps the record bounded anyway.
    const requests = requestsOf(frame).slice(0, this.maxRequestIds);
    if (requests.length === 0) return undefined;
    const record: PostStreamRecord = {
      origin: this.bus.replicaId,
      requestIds: requests.map((request) => request.id),
    };
    // The replica that fails these requests if this one dies answers with their callers' trace ids.
    const traceIds = requests.map(
      (request) => incomingParent(request.params, traceparent)?.traceId ?? null,
    );
    if (traceIds.some((traceId) => traceId !== null)) record.traceIds = traceIds;
    return {
      opened: (streamId) => this.write(session.id, streamId, record),
      finished: (streamId) => this.delete(session.id, streamId),
    };
  }

  /** The stream's record; undefined when there is none (never recorded, ended, expired). Throws when Redis cannot say. */
  async load(sessionId: string, streamId: string): Promise<PostStreamRecord | undefined> {
    const client = this.redis?.client;
    if (!client) return undefined;
    return parseRecord(await client.get(this.key(sessionId, streamId)));
  }

  /**
   * Deletes the record; true for the one caller that deleted it, so its
   * requests are failed once. False when Redis cannot say (the record stays for a later resume).
   */
  async take(sessionId: string, streamId: string): Promise<boolean> {
    const deleted = await this.redis?.client?.del(this.key(sessionId, streamId)).catch(() => 0);
    return deleted === 1;
  }

  /**
   * Not awaited: ioredis sends the SET before the caller writes the stream's
   * first event, and a client can only resume after that event and a
   * reconnection delay, so the record is in Redis before any resume asks.
   */
  private write(sessionId: string, streamId: string, record: PostStreamRecord): void {
    this.redis?.client
      ?.set(this.key(sessionId, streamId), JSON.stringify(record), 'PX', this.ttlMs)
      .catch((err: unknown) =>
        this.logger.warn({ msg: 'stream not recorded', sessionId, streamId, error: String(err) }),
      );
  }

  private delete(sessionId: string, streamId: string): void {
    // A miss only leaves a record that expires; a resume of the ended stream is answered by its replica's log.
    this.redis?.client?.del(this.key(sessionId, streamId)).catch(() => undefined);
  }

  private key(sessionId: string, streamId: string): string {
    return `${this.redis!.prefix}stream:${sessionId}:${streamId}`;
  }
}

/** The frame's requests: what a stream answering it carries responses for. */
function requestsOf(frame: InboundFrame): JsonRpcRequest[] {
  const entries =
    frame.kind === 'batch' ? frame.entries : frame.kind === 'single' ? [frame.entry] : [];
  return entries.flatMap((entry) => (entry.kind === 'request' ? [entry.message] : []));
}

/** A record read back from Redis: only its shape is trusted. */
function parseRecord(text: string | null): PostStreamRecord | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<PostStreamRecord> | null;
    if (
      typeof value?.origin !== 'string' ||
      !Array.isArray(value.requestIds) ||
      !value.requestIds.every((id) => typeof id === 'string' || typeof id === 'number')
    ) {
      return undefined;
    }
    const record: PostStreamRecord = { origin: value.origin, requestIds: value.requestIds };
    const { traceIds } = value;
    if (
      Array.isArray(traceIds) &&
      traceIds.length === value.requestIds.length &&
      traceIds.every((id) => id === null || (typeof id === 'string' && TRACE_ID.test(id)))
    ) {
      record.traceIds = traceIds;
    }
    return record;
  } catch {
    return undefined;
  }
}
