import { ErrorCode } from '../errors/error-code';
import { CompletedCall } from '../json-rpc/call-observers';
import { isFailure } from '../json-rpc/json-rpc.types';
import { LedgerOutcome } from './ledger-row';

export interface CallOutcome {
  outcome: LedgerOutcome;
  errorCode: number | null;
  /** The JSON-RPC result on success (tool errors included). */
  result?: unknown;
  /** `error.data.reason` of a denial, when governance put one there. */
  deniedFor?: string;
}

/** How an audited call ended, read from its response. */
export function callOutcome(call: CompletedCall): CallOutcome {
  const { response } = call;
  if (call.cancelled || response === undefined) return { outcome: 'cancelled', errorCode: null };
  if (isFailure(response)) {
    const { code, data } = response.error;
    const reason = (data as { reason?: unknown } | undefined)?.reason;
    if (code === Number(ErrorCode.GovernanceDenied)) {
      return {
        outcome: 'denied',
        errorCode: code,
        deniedFor: typeof reason === 'string' ? reason : undefined,
      };
    }
    return { outcome: code === Number(ErrorCode.Timeout) ? 'timeout' : 'error', errorCode: code };
  }
  if (call.context.call.inputRequired) {
    return { outcome: 'input_required', errorCode: null, result: response.result };
  }
  const isError = (response.result as { isError?: unknown } | null)?.isError === true;
  return { outcome: isError ? 'tool_error' : 'success', errorCode: null, result: response.result };
}
