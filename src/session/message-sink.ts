import { JsonRpcMessage } from '../json-rpc/json-rpc.types';

/**
 * Where outbound messages of a session go: stdout, an SSE stream, or the SSE
 * body of one POST. A transport only moves frames; it never interprets them.
 */
export interface MessageSink {
  /** False once the peer is gone; writes are then dropped. */
  readonly open: boolean;
  send(message: JsonRpcMessage | JsonRpcMessage[]): void;
  /**
   * Ends the connection that carries this sink while the sink itself goes on
   * (SEP-1699 polling): what is sent afterwards is kept for the client, which
   * reconnects with Last-Event-ID to receive it. False, and nothing closed,
   * when the transport cannot resume this sink. Only resumable sinks have it.
   */
  closeConnection?(): boolean;
}

/**
 * A sink whose connection can be held open past its request's answer time,
 * counted against `limits.sse_streams_*` (subscriptions/listen). False when
 * the caps refuse it: the refusal has been written to the client.
 */
export interface HoldableSink extends MessageSink {
  hold(clientId: string): boolean;
}

export function isHoldable(sink: MessageSink | undefined): sink is HoldableSink {
  return typeof (sink as Partial<HoldableSink> | undefined)?.hold === 'function';
}
