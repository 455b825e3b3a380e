import { JsonRpcMessage } from '../json-rpc/json-rpc.types';

/**
 * Where outbound messages of a session go: stdout, an SSE stream, or the SSE
 * body of one POST. A transport only moves frames; it never interprets them.
 */
export interface MessageSink {
  /** False once the peer is gone; writes are then dropped. */
  readonly open: boolean;
  send(message: JsonRpcMessage | JsonRpcMessage[]): void;
}
