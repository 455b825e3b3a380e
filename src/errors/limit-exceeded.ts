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
  options: { retryable?: boolean; retryAfter?: number } = {},
): GatewayError {
  return new GatewayError(code, `${what} exceeds limits.${limit} (${max})`, {
    data: { limit: `limits.${limit}`, max },
    retryable: options.retryable ?? false,
    retryAfter: options.retryAfter,
  });
}
