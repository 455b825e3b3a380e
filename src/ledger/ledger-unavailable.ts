import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';

/** Seconds a client should wait before retrying a call the ledger could not record. */
export const LEDGER_RETRY_AFTER_SECONDS = 1;

/**
 * The answer to a call whose ledger row could not be committed: the client
 * holds no result the ledger lacks, and may retry. `why` is client-safe (no
 * paths); the details go to the log.
 */
export function ledgerUnavailable(why: string, cause?: unknown): GatewayError {
  return new GatewayError(
    ErrorCode.InternalError,
    `The ledger cannot record calls (${why}); retry shortly`,
    {
      data: { reason: 'ledger_unavailable' },
      retryable: true,
      retryAfter: LEDGER_RETRY_AFTER_SECONDS,
      cause,
    },
  );
}
