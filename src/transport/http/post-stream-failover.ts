import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Response } from 'express';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '../../errors/error-code';
import { failure } from '../../json-rpc/json-rpc.responses';
import { JsonRpcFailure, JsonRpcId } from '../../json-rpc/json-rpc.types';
import { RequestLog } from '../../logging/request-log';
import { newTraceId } from '../../observability/tracing/traceparent';
import { McpSession } from '../../session/mcp-session';
import {
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TTL_MS,
  ReplicaHeartbeat,
} from '../../session/shared/replica-heartbeat';
import { SessionBus, StreamEvent } from '../../session/shared/session-bus';
import { sendHttpError } from './http-reply';
import { PostStreamRecord, PostStreamRecords } from './post-stream-records';
import { relayKey } from './post-stream-relay';
import { SseHub } from './sse.hub';
import { SseStream } from './sse-stream';

/** A resumed stream this replica carries for the replica running its requests. */
interface HeldRelay {
  stream: SseStream;
  /** The origin sent something: it is alive and relays the stream. */
  relayed: boolean;
  /** The origin ended the stream (its answer was sent). */
  ended: boolean;
}

/** Checks of the record that may find it gone while the origin lives before the relay is taken for lost. */
const MISSING_RECORD_CHECKS = 2;

/**
 * A GET resuming a POST stream of another replica of a shared session (its
 * Last-Event-ID names `p<replica><n>`, recorded by PostStreamRecords). This
 * replica opens the stream and asks the origin to relay it (PostStreamRelay);
 * while the origin's heartbeat lasts the stream carries what it sends. When
 * the heartbeat expires (the origin died), every request of the stream fails
 * here with a retryable error, once, and the stream ends: the client stops
 * waiting for answers that will never come.
 */
@Injectable()
export class PostStreamFailover implements OnModuleInit {
  private readonly logger = new Logger('SharedSessions');
  /** Streams held here for another replica (each also holds a slot of `limits.sse_streams_*`). */
  private readonly held = new Map<string, HeldRelay>();

  constructor(
    private readonly records: PostStreamRecords,
    private readonly heartbeat: ReplicaHeartbeat,
    private readonly bus: SessionBus,
    private readonly hub: SseHub,
    private readonly requestLog: RequestLog,
  ) {}

  onModuleInit(): void {
    this.bus.onStreamEvent((event) => this.onStreamEvent(event));
  }

  /**
   * Serves the resume; false (nothing written) when the stream has no record
   * of another replica's, so the caller answers as for any unknown stream.
   */
  async resume(
    session: McpSession,
    streamId: string,
    lastEventId: string,
    res: Response,
  ): Promise<boolean> {
    let record: PostStreamRecord | undefined;
    try {
      record = await this.records.load(session.id, streamId);
    } catch (err) {
      this.logger.warn({
        msg: 'stream record unreadable',
        sessionId: session.id,
        streamId,
        error: String(err),
      });
      return false;
    }
    if (!record || record.origin === this.bus.replicaId) return false;
    const target = { sessionId: session.id, streamId, holder: this.bus.replicaId };
    const key = relayKey(target);
    if (this.held.has(key)) {
      sendHttpError(res, 409, 'Conflict: this stream already has an open connection');
      return true;
    }
    const stream = this.hub.openHeld(session.clientId, res, { 'Mcp-Session-Id': session.id });
    if (!stream) return true;
    const relay: HeldRelay = { stream, relayed: false, ended: false };
    this.held.set(key, relay);
    stream.onClose(() => {
      this.held.delete(key);
      if (!relay.ended) this.bus.publish({ kind: 'stream-released', ...target });
    });
    this.bus.publish({ kind: 'stream-resume', ...target, after: lastEventId });
    await this.watchOrigin(session, streamId, record, relay);
    return true;
  }

  /**
   * Until the stream ends: the origin's death fails its requests; an origin
   * that lives but never relays (it lost the stream), or whose record is gone
   * without the stream's end reaching here, ends the GET, and the client resumes again.
   */
  private async watchOrigin(
    session: McpSession,
    streamId: string,
    record: PostStreamRecord,
    relay: HeldRelay,
  ): Promise<void> {
    const { stream } = relay;
    const closed = new AbortController();
    stream.onClose(() => closed.abort());
    // A dead origin's heartbeat expires within its TTL: past that, silence means it lives without the stream.
    const relayDeadline = Date.now() + HEARTBEAT_TTL_MS + HEARTBEAT_INTERVAL_MS;
    let missingRecord = 0;
    while (stream.open) {
      let leftMs = HEARTBEAT_INTERVAL_MS;
      try {
        leftMs = await this.heartbeat.lifeLeftMs(record.origin);
        if (leftMs === 0) break;
        if (relay.relayed) {
          const recorded = await this.records.load(session.id, streamId);
          missingRecord = recorded ? 0 : missingRecord + 1;
        }
      } catch {
        // Redis cannot say: look again at the next interval.
      }
      const lost = relay.relayed
        ? missingRecord >= MISSING_RECORD_CHECKS
        : Date.now() >= relayDeadline;
      if (lost) return stream.close();
      // Right after a dead origin's heartbeat expires, or at the next beat of a live one.
      const waitMs = Math.min(leftMs + 10, HEARTBEAT_INTERVAL_MS);
      await sleep(waitMs, undefined, { signal: closed.signal, ref: false }).catch(() => undefined);
    }
    if (stream.open) await this.failRequests(session, streamId, record, stream);
  }

  /** One error per request of the stream, written by the one replica that took the record. */
  private async failRequests(
    session: McpSession,
    streamId: string,
    record: PostStreamRecord,
    stream: SseStream,
  ): Promise<void> {
    if (await this.records.take(session.id, streamId)) {
      this.logger.warn({
        msg: 'requests failed: their replica stopped',
        sessionId: session.id,
        streamId,
        replica: record.origin,
        requests: record.requestIds.length,
      });
      stream.send(
        record.requestIds.map((id, index) =>
          this.lost(session, record, id, record.traceIds?.[index] ?? newTraceId()),
        ),
      );
    }
    stream.close();
  }

  /** A request its replica took down with it: answered and logged with its caller's trace id, else a fresh one. */
  private lost(
    session: McpSession,
    record: PostStreamRecord,
    id: JsonRpcId,
    traceId: string,
  ): JsonRpcFailure {
    const answer = failure(
      id,
      ErrorCode.InternalError,
      `The gateway replica running this request (${record.origin}) stopped before it answered; whether the request took effect is unknown`,
      { retryable: true, reason: 'replica_lost', replica: record.origin, traceId },
    );
    this.requestLog.refused({ response: answer, session, traceId });
    return answer;
  }

  /** The origin's side of the relay, for streams held here. */
  private onStreamEvent(event: StreamEvent): void {
    if (event.kind !== 'stream-event' && event.kind !== 'stream-end') return;
    if (event.holder !== this.bus.replicaId) return;
    const relay = this.held.get(relayKey(event));
    if (!relay) return;
    relay.relayed = true;
    if (event.kind === 'stream-event') {
      relay.stream.writeEvent({ event: 'message', id: event.id, data: event.data });
    } else {
      relay.ended = true;
      relay.stream.close();
    }
  }
}
