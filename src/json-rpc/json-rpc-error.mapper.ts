import { HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { JsonRpcErrorObject } from './json-rpc.types';

/** Status codes of Nest's built-in exceptions (thrown by pipes and guards) in JSON-RPC terms. */
const HTTP_TO_RPC: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: ErrorCode.InvalidParams,
  [HttpStatus.UNPROCESSABLE_ENTITY]: ErrorCode.InvalidParams,
  [HttpStatus.NOT_FOUND]: ErrorCode.MethodNotFound,
  [HttpStatus.FORBIDDEN]: ErrorCode.GovernanceDenied,
  [HttpStatus.UNAUTHORIZED]: ErrorCode.GovernanceDenied,
  [HttpStatus.TOO_MANY_REQUESTS]: ErrorCode.GovernanceDenied,
  [HttpStatus.REQUEST_TIMEOUT]: ErrorCode.Timeout,
};

/**
 * The single mapping from anything thrown to a JSON-RPC error object. Unknown
 * errors are logged with an incident id and answered without internals.
 */
@Injectable()
export class JsonRpcErrorMapper {
  private readonly logger = new Logger('JsonRpcError');

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  toErrorObject(exception: unknown, context: { method?: string } = {}): JsonRpcErrorObject {
    if (exception instanceof GatewayError) return this.fromGatewayError(exception);
    if (exception instanceof HttpException) return this.fromHttpException(exception);
    return this.fromUnknown(exception, context.method);
  }

  private fromGatewayError(error: GatewayError): JsonRpcErrorObject {
    const data: Record<string, unknown> = { ...error.data, retryable: error.retryable };
    if (error.retryAfter !== undefined) data.retry_after = error.retryAfter;
    if (this.config.dev_mode && error.stack) data.stack = error.stack;
    return { code: error.code, message: error.message, data };
  }

  private fromHttpException(exception: HttpException): JsonRpcErrorObject {
    const code = HTTP_TO_RPC[exception.getStatus()] ?? ErrorCode.InternalError;
    const body = exception.getResponse();
    const details =
      typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
    const data: Record<string, unknown> = { retryable: code === ErrorCode.Timeout };
    if (details !== undefined) data.details = details;
    if (code === ErrorCode.GovernanceDenied) data.reason = 'forbidden';
    const message =
      code === ErrorCode.InvalidParams && Array.isArray(details)
        ? `Invalid params: ${details.map(String).join('; ')}`
        : exception.message;
    return { code, message, data };
  }

  private fromUnknown(exception: unknown, method?: string): JsonRpcErrorObject {
    const incidentId = randomUUID();
    const err = exception instanceof Error ? exception : new Error(String(exception));
    this.logger.error({
      msg: 'unhandled error',
      incidentId,
      method,
      error: err.message,
      stack: err.stack,
    });
    const data: Record<string, unknown> = { retryable: true, incident_id: incidentId };
    if (this.config.dev_mode) data.stack = err.stack;
    return {
      code: ErrorCode.InternalError,
      message: `Internal error (incident ${incidentId})`,
      data,
    };
  }
}
