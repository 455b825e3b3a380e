import { JsonRpcId, JsonRpcMessage } from '../json-rpc/json-rpc.types';
import { MessageSink } from '../session/message-sink';
import { ListenFilter, passesFilter } from './listen-filter';

export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

/**
 * The standalone stream of a listening session: only the notifications its
 * filter opted in to pass, each tagged with the subscription's id (the
 * listen request's id) in `_meta`, onto the request's own stream.
 */
export class ListeningSink implements MessageSink {
  constructor(
    private readonly inner: MessageSink,
    private readonly subscriptionId: JsonRpcId,
    private readonly filter: ListenFilter,
  ) {}

  get open(): boolean {
    return this.inner.open;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    for (const one of Array.isArray(message) ? message : [message]) {
      if (!('method' in one) || 'id' in one) continue;
      if (!passesFilter(this.filter, one.method, one.params)) continue;
      this.inner.send(tagged(one.method, one.params, this.subscriptionId));
    }
  }

  /** The first message of the stream: what the server agreed to send. */
  acknowledge(agreed: ListenFilter): void {
    this.inner.send(
      tagged(
        'notifications/subscriptions/acknowledged',
        { notifications: agreed },
        this.subscriptionId,
      ),
    );
  }
}

function tagged(method: string, params: unknown, subscriptionId: JsonRpcId): JsonRpcMessage {
  const given = (params ?? {}) as Record<string, unknown>;
  const meta = (given._meta ?? {}) as Record<string, unknown>;
  return {
    jsonrpc: '2.0',
    method,
    params: { ...given, _meta: { ...meta, [SUBSCRIPTION_ID_META]: subscriptionId } },
  };
}
