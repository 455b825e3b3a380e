import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from './error-code';
import { GatewayError } from './gateway.error';

/** A key of `mcp_server.limits`, so a refusal always names a limit an operator can raise. */
export type LimitName = keyof GatewayConfig['limits'];

/**
 * The error every limit refusal uses: the message and `data.limit` name the config key,
 * `data.max` its value. The caller picks the JSON-RPC code that fits the surface
 * (-32600 for framing such as batches, -32602 for arguments, ...).
 */
export function limitExceeded(
  code: ErrorCode,
  limit: LimitName,
  max: number,
  what: string,
  options: LimitErrorOptions = {},
): GatewayError {
  return configLimitExceeded(code, `limits.${limit}`, max, what, options);
}

export interface LimitErrorOptions {
  retryable?: boolean;
  retryAfter?: number;
}

/** The same refusal for a limit kept outside `limits` (`tasks.max_active`, a quota's `max_concurrent_tasks`). */
export function configLimitExceeded(
  code: ErrorCode,
  key: string,
  max: number,
  what: string,
  options: LimitErrorOptions = {},
): GatewayError {
  return new GatewayError(code, `${what} exceeds ${key} (${max})`, {
    data: { limit: key, max },
    retryable: options.retryable ?? false,
    retryAfter: options.retryAfter,
  });
}
