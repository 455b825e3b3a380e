import { ErrorCode } from '../errors/error-code';
import { loggedId } from '../logging/clipped-text';
import { RequestScope } from '../observability/request-scope';
import { RequestSpan, SpanAttributes } from '../observability/tracing/request-tracer';
import { McpSession } from '../session/mcp-session';
import {
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcNotification,
  JsonRpcRequest,
} from './json-rpc.types';

/*
 * How a dispatched message carries its trace: the request scope every log
 * line reads, how its span ends, the trace id in an answer made before dispatch.
 */

/** Attributes are set once the outcome is known (request-span.attributes.ts). */
export const NO_ATTRIBUTES: SpanAttributes = Object.freeze({});
export const SUCCEEDED = Object.freeze({});
export const FAILED = Object.freeze({ errorCode: ErrorCode.InternalError });

export function endOfFailure(error: JsonRpcErrorObject): { errorCode: number; message: string } {
  return { errorCode: error.code, message: error.message };
}

/** What every log line of the request carries (request-ids.mixin.ts). */
export function scopeOf(
  message: JsonRpcRequest | JsonRpcNotification,
  session: McpSession,
  span: RequestSpan,
): RequestScope {
  return {
    // A notification has no id: its span's stands in.
    requestId: 'id' in message ? loggedId(message.id) : span.spanId,
    traceId: span.traceId,
    spanId: span.spanId,
    sampled: span.sampled,
    method: message.method,
    clientId: session.clientId,
    sessionId: session.id,
  };
}

/** The failure with the trace id in its error data, where every error of a request carries it. */
export function withTraceId(response: JsonRpcFailure, traceId: string): JsonRpcFailure {
  const { data } = response.error;
  const fields = isRecord(data) ? data : {};
  if (fields.traceId === traceId) return response;
  return { ...response, error: { ...response.error, data: { ...fields, traceId } } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
