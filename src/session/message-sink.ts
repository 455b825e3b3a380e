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
