import { SessionBus } from '../../session/shared/session-bus';
import { SseConnection } from './sse-sessions';
import { SseEventFields } from './sse-stream';

/** The relayed stream, and the replica whose GET now carries it. */
export interface RelayTarget {
  sessionId: string;
  streamId: string;
  holder: string;
}

/**
 * A POST stream's connection held by another replica (the client resumed the
 * stream there), reached over the SessionBus: each event goes to the holder,
 * which writes it with the same id; closing it tells the holder to end its GET.
 * Events keep their order: this replica publishes them on one Redis connection.
 */
export class RelayedSseConnection implements SseConnection {
  private ended = false;

  constructor(
    private readonly bus: SessionBus,
    readonly target: RelayTarget,
    /** Called once, when the connection closes or is released. */
    private readonly onEnd: () => void,
  ) {}

  get open(): boolean {
    return !this.ended;
  }

  /** Only events with an id travel: the holder's client must be able to resume after each. */
  writeEvent(fields: SseEventFields): boolean {
    if (this.ended || fields.id === undefined) return false;
    const { sessionId, streamId, holder } = this.target;
    return this.bus.publish({
      kind: 'stream-event',
      sessionId,
      streamId,
      holder,
      id: fields.id,
      data: fields.data,
    });
  }

  close(): void {
    if (this.ended) return;
    const { sessionId, streamId, holder } = this.target;
    this.bus.publish({ kind: 'stream-end', sessionId, streamId, holder });
    this.end();
  }

  /** The client left the holder's GET: the stream waits for its next resume, here or anywhere. */
  release(): void {
    if (!this.ended) this.end();
  }

  private end(): void {
    this.ended = true;
    this.onEnd();
  }
}
