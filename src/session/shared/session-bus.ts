import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceRedis } from '../../governance/redis/governance-redis';
import { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../../json-rpc/json-rpc.types';
import { NO_PEERS, SessionPeers } from '../session-peers';
import { SessionRecord } from './session-record';
import { sessionsShared } from './sessions-shared';

/** What replicas tell each other about shared sessions. */
export type SessionEvent =
  | { kind: 'deliver'; sessionId: string; message: JsonRpcMessage | JsonRpcMessage[] }
  | { kind: 'response'; sessionId: string; response: JsonRpcResponse }
  | { kind: 'cancel'; sessionId: string; requestId: JsonRpcId; reason: string }
  | { kind: 'closed'; sessionId: string }
  | { kind: 'updated'; record: SessionRecord };

/**
 * What replicas tell each other about a POST stream resumed at a replica
 * other than the one running its request (`holder` is the replica the client
 * reconnected to): the request to relay it, its events, its end, and the
 * client leaving the relayed connection.
 */
export type StreamEvent =
  | { kind: 'stream-resume'; sessionId: string; streamId: string; after: string; holder: string }
  | {
      kind: 'stream-event';
      sessionId: string;
      streamId: string;
      holder: string;
      id: string;
      data: string;
    }
  | { kind: 'stream-end'; sessionId: string; streamId: string; holder: string }
  | { kind: 'stream-released'; sessionId: string; streamId: string; holder: string };

interface Envelope {
  origin: string;
  event: SessionEvent | StreamEvent;
}

function isStreamEvent(event: SessionEvent | StreamEvent): event is StreamEvent {
  return event.kind.startsWith('stream-');
}

const CHANNEL = 'sessions';

/**
 * The replicas' channel for shared sessions (Redis pub/sub, `state.driver:
 * redis`): messages for a stream another replica holds, client answers and
 * cancellations for requests running elsewhere, a session's changes and end,
 * and POST streams relayed to the replica a client resumed them at. Every
 * replica hears every event and acts on those about sessions it holds, so nobody has to know where a stream is. It is also the SessionPeers
 * every shared session is given. With the in-process driver, or
 * `state.sessions: local`, it is off.
 */
@Injectable()
export class SessionBus implements SessionPeers, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('SharedSessions');
  /** This replica, in event origins, its server-to-client request ids and its SSE stream ids. */
  readonly replicaId = randomBytes(4).toString('hex');
  readonly requestIdPrefix: string;
  private readonly channel: string;
  private subscriber?: Redis;
  private handler: (event: SessionEvent) => void = () => undefined;
  private readonly streamHandlers: Array<(event: StreamEvent) => void> = [];
  /** Redis for events; undefined when sessions stay in this process. */
  private readonly client?: Redis;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Optional() private readonly redis?: GovernanceRedis,
  ) {
    this.channel = `${redis?.prefix ?? ''}${CHANNEL}`;
    this.client = sessionsShared(config) ? redis?.client : undefined;
    this.requestIdPrefix = this.enabled ? `srv-${this.replicaId}-` : NO_PEERS.requestIdPrefix;
  }

  get enabled(): boolean {
    return this.client !== undefined;
  }

  /** Who acts on events from other replicas (the session registry). */
  onEvent(handler: (event: SessionEvent) => void): void {
    this.handler = handler;
  }

  /** Who acts on events about relayed POST streams (both ends of a relay listen). */
  onStreamEvent(handler: (event: StreamEvent) => void): void {
    this.streamHandlers.push(handler);
  }

  onModuleInit(): void {
    if (this.enabled) {
      this.subscriber = this.redis?.subscribe(this.channel, (text) => this.receive(text));
    }
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  deliver(sessionId: string, message: JsonRpcMessage | JsonRpcMessage[]): boolean {
    return this.publish({ kind: 'deliver', sessionId, message });
  }

  forwardResponse(sessionId: string, response: JsonRpcResponse): boolean {
    return this.publish({ kind: 'response', sessionId, response });
  }

  forwardCancel(sessionId: string, requestId: JsonRpcId, reason: string): boolean {
    return this.publish({ kind: 'cancel', sessionId, requestId, reason });
  }

  /** Sends the event to the other replicas; false when there are none to reach. */
  publish(event: SessionEvent | StreamEvent): boolean {
    if (!this.enabled) return false;
    void this.publishDelivered(event);
    return true;
  }

  /**
   * Sends the event and settles once Redis has handed it to the other
   * replicas' connections, for a change the client's next request (which may
   * go to any of them) must already see. False when it could not be sent.
   */
  async publishDelivered(event: SessionEvent | StreamEvent): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    const envelope: Envelope = { origin: this.replicaId, event };
    try {
      await client.publish(this.channel, JSON.stringify(envelope));
      return true;
    } catch (err) {
      this.logger.warn({ msg: 'session event not sent', kind: event.kind, error: String(err) });
      return false;
    }
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      return;
    }
    if (envelope.origin === this.replicaId || typeof envelope.event?.kind !== 'string') return;
    const { event } = envelope;
    if (!isStreamEvent(event)) this.handler(event);
    else for (const handler of this.streamHandlers) handler(event);
  }
}
