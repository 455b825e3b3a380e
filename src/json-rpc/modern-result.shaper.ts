import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { JsonRpcResponse } from './json-rpc.types';
import { META_SERVER_INFO } from './request-meta';

/**
 * The results 2026-07-28 caches (server/utilities/caching), with who may
 * share them: lists and reads are filtered by the caller's visibility, so
 * only the caller may reuse them; discovery is the same for everyone.
 */
const CACHE_SCOPE: Readonly<Record<string, 'public' | 'private'>> = {
  'server/discover': 'public',
  'tools/list': 'private',
  'prompts/list': 'private',
  'resources/list': 'private',
  'resources/templates/list': 'private',
  'resources/read': 'private',
};

/** Codes earlier revisions used that 2026-07-28 answers as -32602 (basic/index, "Error Codes"). */
const INVALID_PARAMS_NOW = new Set<number>([ErrorCode.ResourceNotFound, ErrorCode.ToolNotFound]);

/**
 * What a 2026-07-28 answer adds to the one every revision shares: `resultType`
 * on results, the gateway's identity in `_meta`, caching hints, and -32602
 * for a resource or tool that does not exist. Results are copied, never
 * changed in place (a handler may return an object it shares).
 */
@Injectable()
export class ModernResultShaper {
  private readonly serverInfo: { name: string; version: string };
  private readonly ttlMs: number;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.serverInfo = { name: config.server.name, version: GATEWAY_VERSION };
    this.ttlMs = config.server.cache_ttl_seconds * 1000;
  }

  shape(method: string, response: JsonRpcResponse): JsonRpcResponse {
    if ('error' in response) {
      if (!INVALID_PARAMS_NOW.has(response.error.code)) return response;
      return { ...response, error: { ...response.error, code: ErrorCode.InvalidParams } };
    }
    const result = (response.result ?? {}) as Record<string, unknown>;
    const resultType = typeof result.resultType === 'string' ? result.resultType : 'complete';
    const meta =
      typeof result._meta === 'object' && result._meta !== null
        ? (result._meta as Record<string, unknown>)
        : {};
    const shaped: Record<string, unknown> = {
      ...result,
      resultType,
      _meta: { ...meta, [META_SERVER_INFO]: this.serverInfo },
    };
    const scope = CACHE_SCOPE[method];
    // Interim (input-required) results are not cacheable and carry no hints.
    if (scope !== undefined && resultType === 'complete') {
      shaped.ttlMs = this.ttlMs;
      shaped.cacheScope = scope;
    }
    return { ...response, result: shaped };
  }
}
