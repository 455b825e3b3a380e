import { ErrorCode } from './error-code';
import { GatewayError } from './gateway.error';

/** The abort reason of a request the client cancelled; such a request gets no response. */
export class RequestCancelledError extends GatewayError {
  constructor(reason: string) {
    super(ErrorCode.ExecutionError, `Request cancelled: ${reason}`, { data: { cancelled: true } });
    this.name = 'RequestCancelledError';
  }
}
