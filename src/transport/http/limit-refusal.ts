import { ServerResponse } from 'node:http';
import { GatewayError } from '../../errors/gateway.error';
import { failure } from '../../json-rpc/json-rpc.responses';
import { JsonRpcId } from '../../json-rpc/json-rpc.types';
import { requestScope } from '../../observability/request-scope';
import { logHttpRefusal } from './http-refusal.log';
import { sendJson } from './http-reply';

/** A client over its own cap should slow down (429); a full replica is unavailable (503). */
const STATUS_OF_LIMIT: Readonly<Record<string, 429 | 503>> = {
  'limits.sessions_per_client': 429,
  'limits.sse_streams_per_client': 429,
  'limits.sessions_total': 503,
  'limits.sse_streams_total': 503,
};

/**
 * A `limits.*` refusal that comes before any JSON-RPC answer is possible (a
 * session or a stream not opened): the HTTP status that fits, with a JSON-RPC
 * error body naming the limit; `id` echoes the refused request when there is one.
 */
export function sendLimitRefusal(
  res: ServerResponse,
  error: GatewayError,
  id: JsonRpcId | null = null,
): void {
  const status = STATUS_OF_LIMIT[String(error.data.limit)] ?? 503;
  const data: Record<string, unknown> = {
    ...error.data,
    retryable: error.retryable,
    http_status: status,
  };
  // Met while serving a request (a stateless subscriptions/listen stream): an error of that request.
  const traceId = requestScope.current()?.traceId;
  if (traceId !== undefined) data.traceId = traceId;
  logHttpRefusal(res, status, error.code, error.message);
  sendJson(res, status, failure(id, error.code, error.message, data));
}
