import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';

/**
 * An error a handler means its caller to read ("order 42 does not exist").
 * Its message is returned as is; any other thrown error is reported to the
 * client only by an incident id, since its message may carry internals.
 */
export class ToolError extends GatewayError {
  constructor(
    message: string,
    data?: Record<string, unknown>,
    options: { retryable?: boolean } = {},
  ) {
    super(ErrorCode.ExecutionError, message, { data, retryable: options.retryable });
    this.name = 'ToolError';
  }
}
