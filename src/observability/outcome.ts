import { ERROR_CATEGORY, ErrorCode } from '../errors/error-code';

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
