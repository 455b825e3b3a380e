import { applyDecorators, UseFilters } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { JsonRpcExceptionFilter } from './json-rpc-exception.filter';

export interface McpMethodOptions {
  /** The JSON-RPC method name, e.g. `tools/call` or `notifications/cancelled`. */
  name: string;
  /** Allowed before `initialize` completed (only `initialize` and `ping` are). */
  beforeInitialize?: boolean;
}

/** Discovery marker read by McpMethodRegistry at boot. */
export const McpMethodMarker = DiscoveryService.createDecorator<McpMethodOptions>();

/**
 * Marks a provider method as the handler of one MCP method. The JSON-RPC
 * exception filter is bound here so that every MCP method maps errors the
 * same way without a global filter leaking onto HTTP controllers.
 */
export function McpMethod(
  name: string,
  options: Omit<McpMethodOptions, 'name'> = {},
): MethodDecorator {
  return applyDecorators(McpMethodMarker({ name, ...options }), UseFilters(JsonRpcExceptionFilter));
}
