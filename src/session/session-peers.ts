import { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../json-rpc/json-rpc.types';

/**
 * The other replicas, as one session sees them. With sessions shared through
 * Redis, a message for the session's standalone stream may have to reach the
 * replica holding that stream, a client's answer may arrive at a replica
 * other than the one that asked, and a cancellation at one other than the
 * one running the request. On a single replica (the embedded default) there
 * is nobody to reach: every method answers false.
 */
export interface SessionPeers {
  /** Prefix of this replica's server-to-client request ids, so an answer can find its way back. */
  readonly requestIdPrefix: string;
  /** Sends a message to the session's standalone stream on whichever replica holds it. */
  deliver(sessionId: string, message: JsonRpcMessage | JsonRpcMessage[]): boolean;
  /** Hands a client's answer to the replica whose request it answers. */
  forwardResponse(sessionId: string, response: JsonRpcResponse): boolean;
  /** Asks every replica to cancel the session's request `requestId` if it runs there. */
  forwardCancel(sessionId: string, requestId: JsonRpcId, reason: string): boolean;
}

export const NO_PEERS: SessionPeers = {
  requestIdPrefix: 'srv-',
  deliver: () => false,
  forwardResponse: () => false,
  forwardCancel: () => false,
};
