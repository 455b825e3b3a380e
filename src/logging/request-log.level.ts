import { ErrorCode } from '../errors/error-code';
import { JsonRpcErrorObject } from '../json-rpc/json-rpc.types';

/** Nest Logger methods: `log` is info. */
export type RequestLogLevel = 'log' | 'warn' | 'error';

/** The `data.code` upstream errors carry when the upstream cannot be reached at all. */
const UPSTREAM_UNREACHABLE = 'mcp_unavailable';

/**
 * How loud a failed request's line is: a gateway fault (internal error, the
 * ledger or an upstream unreachable) is an error an operator must act on; a
 * tool that failed or timed out is a warning; everything else (parse errors,
 * invalid params, unknown methods or tools, denials, limit refusals) is the
 * client's mistake and stays at info.
 */
export function requestLogLevel(error: JsonRpcErrorObject): RequestLogLevel {
  if (error.code === Number(ErrorCode.InternalError)) return 'error';
  const data = error.data as { code?: unknown } | undefined;
  if (data?.code === UPSTREAM_UNREACHABLE) return 'error';
  if (error.code === Number(ErrorCode.Timeout) || error.code === Number(ErrorCode.ExecutionError)) {
    return 'warn';
  }
  return 'log';
}
