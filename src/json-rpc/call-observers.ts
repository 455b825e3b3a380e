import { JsonRpcParams, JsonRpcResponse } from './json-rpc.types';
import { McpRequestContext } from './mcp-request-context';

/** Everything known about an audited call once its response exists, before it is sent. */
export interface CompletedCall {
  context: McpRequestContext;
  params: JsonRpcParams;
  /** Epoch milliseconds when dispatch of the request began. */
  startedAt: number;
  durationMs: number;
  /** Size of the serialized response (0 when there is none). */
  responseBytes?: number;
  /** The serialized response, as it will be sent (the ledger digests its result from it). */
  responseText?: string;
  /** Undefined when the client cancelled the request (it gets no response). */
  response?: JsonRpcResponse;
  cancelled: boolean;
}

export interface CallObserver {
  /** Awaited before the response leaves; a rejection turns the response into an error. */
  callCompleted(call: CompletedCall): Promise<void> | void;
}
