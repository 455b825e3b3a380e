import { HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { requestScope } from '../observability/request-scope';
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

/** Every mapped error has data of its own, made for it. */
type MappedError = JsonRpcErrorObject & { data: Record<string, unknown> };

/**
 * The single mapping from anything thrown to a JSON-RPC error object. Unknown
 * errors are logged with an incident id and answered without internals.
 */
@Injectable()
export class JsonRpcErrorMapper {
  private readonly logger = new Logger('JsonRpcError');

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** Inside a request, `data.traceId` is the request's trace id (the one its log lines carry). */
  toErrorObject(exception: unknown, context: { method?: string } = {}): JsonRpcErrorObject {
    const error =
      exception instanceof GatewayError
        ? this.fromGatewayError(exception)
        : exception instanceof HttpException
          ? this.fromHttpException(exception)
          : this.fromUnknown(exception, context.method);
    const traceId = requestScope.current()?.traceId;
    if (traceId !== undefined) error.data.traceId = traceId;
    return error;
  }

  private fromGatewayError(error: GatewayError): MappedError {
    const data: Record<string, unknown> = { ...error.data, retryable: error.retryable };
    if (error.retryAfter !== undefined) data.retry_after = error.retryAfter;
    if (this.config.dev_mode && error.stack) data.stack = error.stack;
    return { code: error.code, message: error.message, data };
  }

  private fromHttpException(exception: HttpException): MappedError {
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

  private fromUnknown(exception: unknown, method?: string): MappedError {
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
