import { DEFAULT_RETRYABLE, ERROR_CATEGORY, ErrorCategory, ErrorCode } from './error-code';

export interface GatewayErrorOptions {
  /** Extra, client-safe detail merged into the JSON-RPC `error.data`. */
  data?: Record<string, unknown>;
  retryable?: boolean;
  /** Seconds after which a retry may succeed (rate limits, budgets). */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * The one error type of the gateway's domain. Everything a client may see is
 * expressed as a GatewayError; each surface maps it once (JSON-RPC filter, REST).
 */
export class GatewayError extends Error {
  readonly category: ErrorCategory;
  readonly retryable: boolean;
  readonly retryAfter?: number;
  readonly data: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: GatewayErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'GatewayError';
    this.category = ERROR_CATEGORY[code];
    this.retryable = options.retryable ?? DEFAULT_RETRYABLE[code];
    this.retryAfter = options.retryAfter;
    this.data = options.data ?? {};
  }

  static invalidParams(message: string, data?: Record<string, unknown>): GatewayError {
    return new GatewayError(ErrorCode.InvalidParams, message, { data });
  }

  static invalidRequest(message: string, data?: Record<string, unknown>): GatewayError {
    return new GatewayError(ErrorCode.InvalidRequest, message, { data });
  }

  static methodNotFound(method: string): GatewayError {
    return new GatewayError(ErrorCode.MethodNotFound, `Method not found: ${method}`, {
      data: { method },
    });
  }
}
