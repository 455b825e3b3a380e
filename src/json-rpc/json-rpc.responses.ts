import { ErrorCode } from '../errors/error-code';
import { JsonRpcFailure, JsonRpcId, JsonRpcSuccess } from './json-rpc.types';

export function success(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

export function failure(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcFailure {
  const error = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

export function invalidRequest(id: JsonRpcId | null, problem: string): JsonRpcFailure {
  return failure(id, ErrorCode.InvalidRequest, `Invalid Request: ${problem}`, {
    retryable: false,
  });
}
