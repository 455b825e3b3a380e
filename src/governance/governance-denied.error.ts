import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { DenialReason, RemainingQuota } from './denial-reason';

export interface DenialDetails {
  retryable: boolean;
  /** Seconds until a retry can succeed (window reset, next month...). */
  retryAfter?: number;
  remaining: RemainingQuota;
  /** Extra client-safe facts (limit, window, estimate...). */
  data?: Record<string, unknown>;
}

/** A governance refusal: JSON-RPC -32003 with `data.reason`, `retryable`, `retry_after` and `remaining`. */
export class GovernanceDeniedError extends GatewayError {
  constructor(
    readonly reason: DenialReason,
    message: string,
    details: DenialDetails,
  ) {
    super(ErrorCode.GovernanceDenied, message, {
      retryable: details.retryable,
      retryAfter: details.retryAfter,
      data: { reason, ...details.data, remaining: details.remaining },
    });
    this.name = 'GovernanceDeniedError';
  }
}
