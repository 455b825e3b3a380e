/**
 * The replay buffer of one session's Streamable HTTP SSE streams (SEP-1699
 * resumability). Every event written on a POST /mcp stream or on the GET /mcp
 * stream gets an id `<stream>/<seq>` and is kept here, so that a client whose
 * connection ended can `GET /mcp` with `Last-Event-ID` and receive what that
 * stream sent after the event it saw last.
 *
 * The buffer is bounded per session: it keeps the newest
 * {@link SSE_REPLAY_MAX_EVENTS} events and at most {@link SSE_REPLAY_MAX_BYTES}
 * of event data, evicting the oldest first (the newest event is always kept,
 * whatever its size). A cursor older than what is kept cannot be resumed: the
 * gateway refuses it (400) rather than replay a stream with a gap in it.
 */
export const SSE_REPLAY_MAX_EVENTS = 500;
export const SSE_REPLAY_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The stream id of a session's standalone GET /mcp stream (POST streams are
 * `p1`, `p2`, ...); a shared session's is `g<replica id>` at each replica.
 */
export const STANDALONE_STREAM_ID = 'g';

export function isStandaloneStreamId(streamId: string): boolean {
  return streamId.startsWith(STANDALONE_STREAM_ID);
}

export interface SseEventRecord {
  /** The SSE `id:` field, `<streamId>/<seq>`. */
  readonly id: string;
  readonly streamId: string;
  /** Position in the session's sequence, shared by all its streams. */
  readonly seq: number;
  /** The serialized JSON-RPC message. */
  readonly data: string;
}

export interface EventCursor {
  streamId: string;
  seq: number;
}

const EVENT_ID = /^([a-z][a-z0-9]{0,15})\/(\d{1,15})$/;

export function formatEventId(streamId: string, seq: number): string {
  return `${streamId}/${seq}`;
}

/** The stream and position a Last-Event-ID names; undefined when it is not one of ours. */
export function parseEventId(value: string): EventCursor | undefined {
  const match = EVENT_ID.exec(value.trim());
  return match ? { streamId: match[1], seq: Number(match[2]) } : undefined;
}

export class SseEventLog {
  private readonly events: SseEventRecord[] = [];
  private seq = 0;
  private bytes = 0;
  /** The seq of the newest evicted event: everything after it is still here. */
  private evictedThrough = 0;

  constructor(
    private readonly maxEvents = SSE_REPLAY_MAX_EVENTS,
    private readonly maxBytes = SSE_REPLAY_MAX_BYTES,
  ) {}

  /** An id for an event that carries no message (a priming event): nothing is stored. */
  nextId(streamId: string): string {
    return formatEventId(streamId, ++this.seq);
  }

  append(streamId: string, data: string): SseEventRecord {
    const seq = ++this.seq;
    const record = { id: formatEventId(streamId, seq), streamId, seq, data };
    this.events.push(record);
    this.bytes += data.length;
    while (
      this.events.length > 1 &&
      (this.events.length > this.maxEvents || this.bytes > this.maxBytes)
    ) {
      const evicted = this.events.shift()!;
      this.bytes -= evicted.data.length;
      this.evictedThrough = evicted.seq;
    }
    return record;
  }

  /**
   * The events of the cursor's stream after it, oldest first; undefined when
   * the cursor lies ahead of this log or some of those events were evicted.
   */
  after(cursor: EventCursor): SseEventRecord[] | undefined {
    if (cursor.seq > this.seq || cursor.seq < this.evictedThrough) return undefined;
    return this.events.filter((e) => e.streamId === cursor.streamId && e.seq > cursor.seq);
  }

  get size(): number {
    return this.events.length;
  }
}
