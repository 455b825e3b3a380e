import { Response } from 'express';
import { failure } from '../../json-rpc/json-rpc.responses';
import { ErrorCode } from '../../errors/error-code';

/** JSON bodies go out as application/json with an exact byte length. */
export function sendJson(res: Response, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.status(status).set('Content-Type', 'application/json').send(payload);
}

/** An HTTP-level refusal that still carries a JSON-RPC error body (clients parse either). */
export function sendHttpError(
  res: Response,
  status: number,
  message: string,
  code: number = ErrorCode.InvalidRequest,
): void {
  sendJson(res, status, failure(null, code, message, { retryable: false, http_status: status }));
}
