import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';

/** The HTTP status each kind of identity refusal is answered with. */
export type IdentityRefusalStatus = 400 | 401 | 403;

/**
 * An HTTP caller whose identity cannot be established (400), who holds no
 * valid API key (401) or who is not the owner of the session it names (403).
 * The resolver throws it; the HTTP transport writes the answer.
 */
export class IdentityRefused extends GatewayError {
  constructor(
    readonly status: IdentityRefusalStatus,
    code: ErrorCode.InvalidRequest | ErrorCode.GovernanceDenied,
    message: string,
  ) {
    super(code, message, {
      retryable: false,
      data: code === ErrorCode.GovernanceDenied ? { reason: 'forbidden' } : {},
    });
    this.name = 'IdentityRefused';
  }
}
