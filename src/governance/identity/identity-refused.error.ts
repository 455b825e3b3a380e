import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';

/** The HTTP status each kind of identity refusal is answered with. */
export type IdentityRefusalStatus = 400 | 401 | 403 | 503;

/**
 * An HTTP caller whose identity cannot be established (400), who holds no
 * valid credential (401), whose token lacks a scope or who is not the owner
 * of the session it names (403), or whose token cannot be validated because
 * the authorization server is unreachable (503). The resolver throws it with
 * the `WWW-Authenticate` value to send; the HTTP transport writes the answer.
 */
export class IdentityRefused extends GatewayError {
  constructor(
    readonly status: IdentityRefusalStatus,
    code: ErrorCode.InvalidRequest | ErrorCode.GovernanceDenied,
    message: string,
    readonly challenge?: string,
  ) {
    super(code, message, {
      retryable: status === 503,
      data: code === ErrorCode.GovernanceDenied ? { reason: 'forbidden' } : {},
    });
    this.name = 'IdentityRefused';
  }
}
