import { LimitName } from '../errors/limit-exceeded';
/** JSON-RPC 2.0 message shapes as MCP uses them (ids are strings or integers). */
export type JsonRpcId = string | number;
export type JsonRpcParams = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonRpcParams;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonRpcParams;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** One element of an inbound frame after validation. */
export type InboundEntry =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; response: JsonRpcFailure };

/** A parsed transport frame: one message, a batch, or a frame that is not JSON-RPC at all. */
export type InboundFrame =
  | { kind: 'single'; entry: InboundEntry }
  | { kind: 'batch'; entries: InboundEntry[] }
  /** `limit`: the limits.message_* key the frame passed, when that is why it was not parsed. */
  | { kind: 'unparseable'; response: JsonRpcFailure; limit?: LimitName };

export function isFailure(response: JsonRpcResponse): response is JsonRpcFailure {
  return 'error' in response;
}
