import { McpError, ErrorCode as McpErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';

/**
 * The gateway errors of an upstream call, with the seed's vocabulary in
 * `data.code` beside the JSON-RPC code and `retryable`.
 */
export function upstreamUnavailable(serverId: string, cause: unknown): GatewayError {
  return new GatewayError(ErrorCode.ExecutionError, `Upstream ${serverId} is unavailable`, {
    data: { code: 'mcp_unavailable', server_id: serverId },
    retryable: true,
    cause,
  });
}

export function upstreamTimeout(serverId: string, tool: string, cause: unknown): GatewayError {
  return new GatewayError(ErrorCode.Timeout, `Upstream ${serverId} timed out on ${tool}`, {
    data: { code: 'mcp_timeout', server_id: serverId, tool },
    cause,
  });
}

export function upstreamBusy(
  serverId: string,
  maxConcurrency: number,
  waitedMs: number,
): GatewayError {
  return new GatewayError(
    ErrorCode.ExecutionError,
    `Upstream ${serverId} is busy: ${maxConcurrency} calls in flight (budgets.max_concurrency) for ${waitedMs} ms`,
    {
      data: { code: 'upstream_busy', server_id: serverId, max_concurrency: maxConcurrency },
      retryable: true,
    },
  );
}

/** Maps what the SDK client threw for a call to a gateway error; the caller's own abort reason passes unchanged. */
export function upstreamCallError(
  serverId: string,
  tool: string,
  error: unknown,
  signal?: AbortSignal,
): unknown {
  if (signal?.aborted) return signal.reason as unknown;
  if (error instanceof GatewayError) return error;
  if (error instanceof McpError) {
    if (error.code === (McpErrorCode.RequestTimeout as number)) {
      return upstreamTimeout(serverId, tool, error);
    }
    if (error.code === (McpErrorCode.ConnectionClosed as number)) {
      return upstreamUnavailable(serverId, error);
    }
    if (error.code === (McpErrorCode.InvalidParams as number)) {
      return new GatewayError(ErrorCode.InvalidParams, error.message, {
        data: { code: 'mcp_invalid_arguments', server_id: serverId, tool },
        cause: error,
      });
    }
    return new GatewayError(ErrorCode.ExecutionError, error.message, {
      data: { code: 'mcp_upstream_error', server_id: serverId, tool, upstream_code: error.code },
      cause: error,
    });
  }
  return upstreamUnavailable(serverId, error);
}

/** A relayed answer (a resource read, a prompt) larger than `max_tool_output_bytes`: refused, since cutting it would change its meaning. */
export function upstreamOutputTooLarge(
  serverId: string,
  operation: string,
  bytes: number,
  limitBytes: number,
): GatewayError {
  return new GatewayError(
    ErrorCode.ExecutionError,
    `Upstream ${serverId} answered ${operation} with ${bytes} bytes, more than budgets.max_tool_output_bytes (${limitBytes})`,
    {
      data: {
        code: 'mcp_output_too_large',
        server_id: serverId,
        bytes,
        limit_bytes: limitBytes,
      },
    },
  );
}

/** Starting one more stdio child would pass `upstreams.max_children`. */
export function upstreamChildLimit(serverId: string, maxChildren: number): GatewayError {
  return new GatewayError(
    ErrorCode.ExecutionError,
    `Upstream ${serverId} cannot start: ${maxChildren} stdio children are already running (upstreams.max_children)`,
    {
      data: {
        code: 'mcp_unavailable',
        server_id: serverId,
        limit: 'upstreams.max_children',
        max_children: maxChildren,
      },
      retryable: true,
    },
  );
}

/** Calls fail at once while a crashed child waits out its backoff or after the server was given up on. */
export function upstreamRestarting(
  serverId: string,
  reason: string,
  retryAfterMs: number,
): GatewayError {
  return new GatewayError(
    ErrorCode.ExecutionError,
    `Upstream ${serverId} is unavailable: ${reason}`,
    {
      data: { code: 'mcp_unavailable', server_id: serverId },
      retryable: true,
      retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    },
  );
}
