import { ERROR_CATEGORY, ErrorCode } from '../errors/error-code';
import type { JsonRpcResponse } from '../json-rpc/json-rpc.types';
import type { McpRequestContext } from '../json-rpc/mcp-request-context';

/** Bounded label values for request outcomes (metrics must not explode in cardinality). */
export type RequestOutcome =
  | 'success'
  | 'protocol_error'
  | 'not_found'
  | 'denied'
  | 'timeout'
  | 'execution_error'
  | 'internal_error';

export function outcomeOfCode(code: number): RequestOutcome {
  if (code === Number(ErrorCode.Timeout)) return 'timeout';
  switch (ERROR_CATEGORY[code as ErrorCode]) {
    case 'protocol':
      return 'protocol_error';
    case 'not_found':
      return 'not_found';
    case 'governance':
      return 'denied';
    case 'execution':
      return 'execution_error';
    default:
      return 'internal_error';
  }
}

/**
 * How one request ended, as its log line and span say it: a tool's own
 * error, a question asked back and a cancellation are outcomes of their own.
 */
export function endedRequestOutcome(
  response: JsonRpcResponse | undefined,
  context: McpRequestContext | undefined,
): string {
  if (response === undefined) return 'cancelled';
  if ('error' in response) return outcomeOfCode(response.error.code);
  if (context?.call.inputRequired) return 'input_required';
  return (response.result as { isError?: unknown } | null)?.isError === true
    ? 'tool_error'
    : 'success';
}
