import { Logger } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { requestScope } from '../observability/request-scope';
import { failure } from './json-rpc.responses';
import { JsonRpcMessage, JsonRpcResponse } from './json-rpc.types';

const logger = new Logger('JsonRpcSerializer');

/**
 * Text already made for a message object: an audited call's response is
 * serialized once before it is recorded, and the transport reuses that text.
 */
const serialized = new WeakMap<JsonRpcMessage, string>();

interface Serialized {
  /** What goes on the wire; undefined when the message is dropped. */
  text?: string;
  /** The message that was serialized: the original, or the error that replaced it. */
  message: JsonRpcMessage;
}

/**
 * Serializes one outbound message, once. A message that cannot be serialized
 * (a BigInt or a cycle in a handler's result) never reaches the wire half
 * written: a response is replaced by a -32603 error for the same id (with the
 * trace id of the request being served, like every error of a request),
 * anything else is dropped; both are logged.
 */
function serialize(message: JsonRpcMessage): Serialized {
  const cached = serialized.get(message);
  if (cached !== undefined) return { text: cached, message };
  try {
    const text = JSON.stringify(message);
    serialized.set(message, text);
    return { text, message };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    logger.error({
      msg: 'outbound message is not serializable as JSON',
      method: 'method' in message ? message.method : undefined,
      id: 'id' in message ? message.id : undefined,
      error: reason,
    });
    if (!('id' in message) || 'method' in message) return { message };
    const replacement = failure(
      message.id,
      ErrorCode.InternalError,
      `Internal error: the result could not be serialized as JSON (${reason})`,
      replacementData(),
    );
    const text = JSON.stringify(replacement);
    serialized.set(replacement, text);
    return { text, message: replacement };
  }
}

/** The dispatcher serializes an answer inside its request's scope (JsonRpcDispatcher.run). */
function replacementData(): Record<string, unknown> {
  const traceId = requestScope.current()?.traceId;
  return traceId === undefined ? { retryable: false } : { retryable: false, traceId };
}

/** The JSON text of a message, or of a batch answer as one array (see `serialize`). */
export function serializeOutbound(message: JsonRpcMessage | JsonRpcMessage[]): string | undefined {
  if (!Array.isArray(message)) return serialize(message).text;
  const parts: string[] = [];
  for (const one of message) {
    const text = serialize(one).text;
    if (text !== undefined) parts.push(text);
  }
  return `[${parts.join(',')}]`;
}

/**
 * Serializes an audited call's response before it is recorded, so that the
 * ledger records what the client will get (the response, or the error that
 * replaces an unserializable one) and its size; the transport reuses the text.
 */
export function prepareResponse(response: JsonRpcResponse): {
  response: JsonRpcResponse;
  text: string;
  bytes: number;
} {
  const { text = '', message } = serialize(response);
  return { response: message as JsonRpcResponse, text, bytes: Buffer.byteLength(text) };
}
