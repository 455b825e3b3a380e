import { GatewayError } from '../errors/gateway.error';
import { errorChain } from './error-chain';
import type { UpstreamState } from './upstream-state';

/** What the admin API shows of one connection. */
export interface UpstreamConnectionStatus {
  state: UpstreamState;
  /** The last failure to reach the upstream (connect, timeout, gone away); cleared by a new connection. */
  lastError?: { message: string; at: string };
  /** The last request that says the upstream is unwell came after its last answer. */
  requestsFailing: boolean;
  /** When the connection entered `state`. */
  since: string;
  /** The last request the upstream answered (an answer that is a tool error counts). */
  lastSuccessAt?: string;
}

// Failures of the upstream itself; a tool's own error or refused arguments say nothing about its health.
const HEALTH_CODES = new Set(['mcp_unavailable', 'mcp_timeout', 'upstream_busy']);

/** Whether an error thrown by a call tells that the upstream is unwell (a caller's abort does not). */
export function isHealthFailure(error: unknown): boolean {
  if (!(error instanceof GatewayError)) return false;
  const code = error.data.code;
  return typeof code === 'string' && HEALTH_CODES.has(code);
}

export function failureOf(error: unknown): { message: string; at: string } {
  return { message: errorChain(error).slice(0, 1024), at: new Date().toISOString() };
}
