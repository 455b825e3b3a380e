import { ErrorCode } from '../errors/error-code';
import { loggedId } from '../logging/clipped-text';
import { RequestScope } from '../observability/request-scope';
import { endedRequestOutcome } from '../observability/outcome';
import { incomingParent } from '../observability/tracing/incoming-parent';
import { RequestSpan, SpanAttributes, SpanEnding } from '../observability/tracing/request-tracer';
import { newTraceId } from '../observability/tracing/traceparent';
import { McpSession } from '../session/mcp-session';
import {
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
} from './json-rpc.types';
import { McpRequestContext } from './mcp-request-context';

/*
 * How a dispatched message carries its trace: the request scope every log
 * line reads, how its span ends, the trace id in an answer made before dispatch.
 */

/** Attributes are set once the outcome is known (request-span.attributes.ts). */
export const NO_ATTRIBUTES: SpanAttributes = Object.freeze({});
export const SUCCEEDED: SpanEnding = Object.freeze({});
export const FAILED: SpanEnding = Object.freeze({ errorCode: ErrorCode.InternalError });

export function endOfFailure(error: JsonRpcErrorObject): SpanEnding {
  return { errorCode: error.code, message: error.message };
}

/** How a dispatched request's span ends: its error, or the outcome its answer shows. */
export function endOfRequest(
  response: JsonRpcResponse | undefined,
  context: McpRequestContext | undefined,
): SpanEnding {
  const outcome = endedRequestOutcome(response, context);
  if (response !== undefined && 'error' in response) {
    return { ...endOfFailure(response.error), outcome };
  }
  return outcome === 'success' ? SUCCEEDED : { outcome };
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
    traceContext: span.traceContext,
  };
}

/** The trace id of an answer made before dispatch: the one its caller named, else a fresh one. */
export function callerTraceId(
  params: JsonRpcParams | undefined,
  traceparent: string | undefined,
): string {
  return incomingParent(params, traceparent)?.traceId ?? newTraceId();
}

/** The trace id an error answer already carries in its data, if any. */
export function carriedTraceId(response: JsonRpcResponse): string | undefined {
  if (!('error' in response) || !isRecord(response.error.data)) return undefined;
  const { traceId } = response.error.data;
  return typeof traceId === 'string' ? traceId : undefined;
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
