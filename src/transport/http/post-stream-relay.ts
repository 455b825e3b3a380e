import { Injectable, OnModuleInit } from '@nestjs/common';
import { SessionRegistry } from '../../session/session.registry';
import { SessionBus, StreamEvent } from '../../session/shared/session-bus';
import { RelayedSseConnection, RelayTarget } from './relayed-sse-connection';
import { parseEventId } from './sse-event-log';
import { SseSessions, writeRecord } from './sse-sessions';

/**
 * The origin's end of a relayed POST stream (shared sessions): a client
 * resumed, at another replica (a network blip cut its connection here), a
 * stream whose request still runs on this one. This replica sends that
 * replica what the client missed and then the rest of the stream, its answer
 * included, over the SessionBus, as if that replica's GET were its own.
 */
@Injectable()
export class PostStreamRelay implements OnModuleInit {
  /** Streams now carried by another replica, so that the client leaving there releases them here. */
  private readonly relayed = new Map<string, RelayedSseConnection>();

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly sse: SseSessions,
    private readonly bus: SessionBus,
  ) {}

  onModuleInit(): void {
    this.bus.onStreamEvent((event) => this.onStreamEvent(event));
  }

  private onStreamEvent(event: StreamEvent): void {
    if (event.kind === 'stream-resume') {
      const { sessionId, streamId, holder } = event;
      this.relay({ sessionId, streamId, holder }, event.after);
    } else if (event.kind === 'stream-released') this.relayed.get(relayKey(event))?.release();
  }

  /** Only a stream this replica ran answers: a holder that hears nothing decides by the heartbeat. */
  private relay(target: RelayTarget, lastEventId: string): void {
    const session = this.sessions.get(target.sessionId);
    const cursor = parseEventId(lastEventId);
    if (!session || !this.sessions.isShared(session) || cursor?.streamId !== target.streamId)
      return;
    const state = this.sse.of(session);
    if (!state.knows(target.streamId)) return;
    const key = relayKey(target);
    // The client resumed again (it left the previous holder): the newest holder carries the stream.
    this.relayed.get(key)?.release();
    const connection = new RelayedSseConnection(this.bus, target, () => {
      if (this.relayed.get(key) === connection) this.relayed.delete(key);
    });
    const missed = state.log.after(cursor);
    // The session no longer keeps every event after the cursor: the holder ends its GET empty.
    if (!missed) return connection.close();
    for (const record of missed) writeRecord(connection, record);
    const running = state.runningPostStream(target.streamId);
    if (!running) return connection.close();
    this.relayed.set(key, connection);
    running.attach(connection);
  }
}

export function relayKey(target: { sessionId: string; streamId: string }): string {
  return `${target.sessionId} ${target.streamId}`;
}
