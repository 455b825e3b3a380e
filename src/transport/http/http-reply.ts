import { ServerResponse } from 'node:http';
import { failure } from '../../json-rpc/json-rpc.responses';
import { serializeOutbound } from '../../json-rpc/json-rpc.serializer';
import { JsonRpcMessage } from '../../json-rpc/json-rpc.types';
import { ErrorCode } from '../../errors/error-code';
import { logHttpRefusal } from './http-refusal.log';

/**
 * JSON bodies go out as application/json with an exact byte length, written
 * straight to the response: Express's send() would also check freshness and
 * sniff the body, work a JSON-RPC answer never needs (it is on every call).
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: JsonRpcMessage | JsonRpcMessage[],
): void {
  const payload = serializeOutbound(body) ?? '';
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(res.req.method === 'HEAD' ? undefined : payload);
}

/** An HTTP-level refusal that still carries a JSON-RPC error body (clients parse either); logged. */
export function sendHttpError(
  res: ServerResponse,
  status: number,
  message: string,
  code: number = ErrorCode.InvalidRequest,
): void {
  logHttpRefusal(res, status, code, message);
  sendJson(res, status, failure(null, code, message, { retryable: false, http_status: status }));
}
