import { Injectable } from '@nestjs/common';
import { JsonRpcMessage } from '../../json-rpc/json-rpc.types';
import { McpSession } from '../../session/mcp-session';
import { MessageSink } from '../../session/message-sink';
import { SharedStandaloneLog } from './shared-standalone-log';
import { SseEventLog, SseEventRecord, STANDALONE_STREAM_ID } from './sse-event-log';
import { SseEventFields } from './sse-stream';

/** Resumption (SEP-1699) starts with the revision whose clients accept priming events. */
const PRIMING_SINCE = '2025-11-25';

/** Whether clients of this revision understand a priming event (an id with empty data). */
export function acceptsPriming(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && protocolVersion >= PRIMING_SINCE;
}

/** What carries a stream's events to its client: an SSE response, or another replica's (relayed). */
export interface SseConnection {
  readonly open: boolean;
  /** False when the event could not be written (the connection is closed). */
  writeEvent(fields: SseEventFields): boolean;
  close(): void;
}

/** A POST stream as the GET that resumes it sees it. */
export interface ResumablePostStream {
  /** True while an HTTP connection carries the stream. */
  readonly connected: boolean;
  /** `connection` carries the stream from now on (the missed events were replayed on it first). */
  attach(connection: SseConnection): void;
}

/**
 * The SSE state of one Streamable HTTP session: its replay log and the POST
 * streams that are still running, which a GET with Last-Event-ID may take over.
 */
export class SessionSseState {
  readonly log = new SseEventLog();

  readonly standaloneStreamId: string;

  /**
   * `replicaTag`: '' for a session of this process alone; this replica's id
   * for a shared one, in every stream id (`g<tag>`, `p<tag><n>`), so that
   * event ids of different replicas never collide and no replica replays
   * another's stream as its own.
   */
  constructor(private readonly replicaTag = '') {
    this.standaloneStreamId = `${STANDALONE_STREAM_ID}${replicaTag}`;
  }

  private readonly running = new Map<string, ResumablePostStream>();
  private postStreams = 0;

  /** Registers a POST stream until finishPostStream; returns its stream id (`p1`, `p2`, ...). */
  openPostStream(stream: ResumablePostStream): string {
    const id = `p${this.replicaTag}${++this.postStreams}`;
    this.running.set(id, stream);
    return id;
  }

  /** The stream sent its last event; its events stay in the log for a late resume. */
  finishPostStream(id: string): void {
    this.running.delete(id);
  }

  runningPostStream(id: string): ResumablePostStream | undefined {
    return this.running.get(id);
  }

  /** Whether `streamId` names a stream this session has had (running or finished). */
  knows(streamId: string): boolean {
    if (streamId === this.standaloneStreamId) return true;
    const prefix = `p${this.replicaTag}`;
    if (!streamId.startsWith(prefix)) return false;
    const n = streamId.slice(prefix.length);
    return /^\d+$/.test(n) && Number(n) >= 1 && Number(n) <= this.postStreams;
  }

  get runningCount(): number {
    return this.running.size;
  }
}

/**
 * SSE state per Streamable HTTP session. Held weakly: it goes away with the
 * session object, so nothing needs to hook the session's close.
 */
@Injectable()
export class SseSessions {
  private readonly states = new WeakMap<McpSession, SessionSseState>();

  constructor(private readonly shared: SharedStandaloneLog) {}

  of(session: McpSession): SessionSseState {
    let state = this.states.get(session);
    if (!state) {
      state = new SessionSseState(this.shared.replicaTagFor(session));
      this.states.set(session, state);
    }
    return state;
  }
}

/** Writes one logged event on a connection (its id lets the client resume after it). */
export function writeRecord(connection: SseConnection, record: SseEventRecord): boolean {
  return connection.writeEvent({ event: 'message', id: record.id, data: record.data });
}

/**
 * The session's standalone GET /mcp stream: every message is logged under the
 * session's standalone stream id and written with its event id, so a client that lost
 * the connection can reopen it with Last-Event-ID and get what it missed.
 */
export class StandaloneSseSink implements MessageSink {
  constructor(
    readonly connection: SseConnection,
    private readonly state: SessionSseState,
    /** Also keeps each event elsewhere (Redis, for a shared session); called before it is written. */
    private readonly mirror: (record: SseEventRecord) => void = () => undefined,
  ) {}

  get open(): boolean {
    return this.connection.open;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    for (const one of Array.isArray(message) ? message : [message]) {
      if (!this.open) return;
      const record = this.state.log.append(this.state.standaloneStreamId, JSON.stringify(one));
      this.mirror(record);
      writeRecord(this.connection, record);
    }
  }
}
