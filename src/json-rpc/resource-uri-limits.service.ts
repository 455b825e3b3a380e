import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded } from '../errors/limit-exceeded';
import { McpMetrics } from '../observability/mcp.metrics';
import { JsonRpcParams } from './json-rpc.types';
import { ResourceUriFields } from './mcp-method.decorator';
import { McpRequestContext } from './mcp-request-context';
import { findResourceUriBreach, ResourceUriLimits } from './resource-uri-limits';

/** What the ledger, the request log and the trace keep of a refused URI: its start, marked as cut. */
export const REFUSED_URI_KEPT_CHARS = 256;

/**
 * Refuses a request whose resource URIs (named by its @McpMethod's
 * `resourceUris`) pass limits.resource_uri_* (or, for URIs a session keeps,
 * limits.subscription_uri_max_chars), before any guard, lookup, visibility
 * check or provider sees them.
 */
@Injectable()
export class ResourceUriLimitsService {
  private readonly limits: ResourceUriLimits;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {
    this.limits = config.limits;
  }

  enforce(params: JsonRpcParams, fields: ResourceUriFields, context: McpRequestContext): void {
    for (const path of fields.paths) {
      for (const uri of urisAt(params, path)) {
        const breach = findResourceUriBreach(uri, this.limits, fields.kept === true);
        if (breach === undefined) continue;
        this.metrics.recordLimitRefusal(breach.limit);
        const key = `limits.${breach.limit}`;
        context.call.target = clipped(uri);
        context.call.argumentsOverLimit = key;
        throw limitExceeded(ErrorCode.InvalidParams, breach.limit, breach.max, breach.what);
      }
    }
  }
}

/** The strings at a dotted params path; an array there gives each of its strings. */
function urisAt(params: JsonRpcParams, path: string): string[] {
  let value: unknown = params;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

function clipped(uri: string): string {
  return uri.length <= REFUSED_URI_KEPT_CHARS ? uri : `${uri.slice(0, REFUSED_URI_KEPT_CHARS)}…`;
}
