import { applyDecorators } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA } from '@nestjs/common/constants';
import { DiscoveryService } from '@nestjs/core';
import { JsonRpcExceptionFilter } from './json-rpc-exception.filter';

export interface McpMethodOptions {
  /** The JSON-RPC method name, e.g. `tools/call` or `notifications/cancelled`. */
  name: string;
  /** Allowed before `initialize` completed (only `initialize` and `ping` are). */
  beforeInitialize?: boolean;
  /** Every outcome, denials included, goes to the AuditTrail (the ledger) before the response leaves. */
  audited?: boolean;
  /**
   * Params fields holding client-shaped values (`arguments`), checked against
   * limits.argument_* before anything else runs: a refusal is -32602 naming the limit.
   */
  limitedParams?: readonly string[];
  /**
   * Params holding resource URIs from the client, checked against
   * limits.resource_uri_* before anything else runs: a refusal is -32602 naming the limit.
   */
  resourceUris?: ResourceUriFields;
}

export interface ResourceUriFields {
  /** Dotted params paths (`uri`, `ref.uri`); an array there has each of its URIs checked. */
  paths: readonly string[];
  /** The session keeps these URIs: limits.subscription_uri_max_chars applies too, and first. */
  kept?: boolean;
}

/** Discovery marker read by McpMethodRegistry at boot. */
export const McpMethodMarker = DiscoveryService.createDecorator<McpMethodOptions>();

/**
 * Binds the JSON-RPC filter as the method's last resort. Nest tries a method's
 * filters last-declared first and stops at the first that matches, so this
 * catch-all goes to the front of the list, whatever the decorator order: a
 * filter the method declares itself (@UseFilters above or below @McpMethod)
 * still gets its exceptions first.
 */
const JsonRpcFilterLast: MethodDecorator = (_target, _key, descriptor) => {
  const method = descriptor.value as object;
  const declared = (Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, method) ?? []) as unknown[];
  Reflect.defineMetadata(
    EXCEPTION_FILTERS_METADATA,
    [JsonRpcExceptionFilter, ...declared.filter((filter) => filter !== JsonRpcExceptionFilter)],
    method,
  );
  return descriptor;
};

/**
 * Marks a provider method as the handler of one MCP method. The JSON-RPC
 * exception filter is bound here so that every MCP method maps errors the
 * same way without a global filter leaking onto HTTP controllers.
 */
export function McpMethod(
  name: string,
  options: Omit<McpMethodOptions, 'name'> = {},
): MethodDecorator {
  return applyDecorators(McpMethodMarker({ name, ...options }), JsonRpcFilterLast);
}
