import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { boundedJsonSize } from '../common/bounded-json-size';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded } from '../errors/limit-exceeded';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { McpMetrics } from '../observability/mcp.metrics';

/**
 * Refuses an initialize whose `capabilities` and `clientInfo` together would
 * be stored larger than `limits.session_metadata_bytes`. A guard, so that it
 * runs before the validation pipe copies the params, and the walk that
 * measures them stops at the limit.
 */
@Injectable()
export class SessionMetadataGuard implements CanActivate {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const params = context.getArgByIndex<JsonRpcParams | undefined>(0) ?? {};
    const max = this.config.limits.session_metadata_bytes;
    const capabilities = boundedJsonSize(params.capabilities, max);
    if (capabilities + boundedJsonSize(params.clientInfo, max - capabilities) <= max) return true;
    this.metrics.recordLimitRefusal('session_metadata_bytes');
    // -32602: the request is a well-formed initialize; its params are what the client must change.
    throw limitExceeded(
      ErrorCode.InvalidParams,
      'session_metadata_bytes',
      max,
      'initialize capabilities and clientInfo (serialized)',
    );
  }
}
