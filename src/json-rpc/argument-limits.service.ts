import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded } from '../errors/limit-exceeded';
import { McpMetrics } from '../observability/mcp.metrics';
import { ArgumentLimits, findArgumentLimitBreach } from './argument-limits';
import { JsonRpcParams } from './json-rpc.types';
import { McpRequestContext } from './mcp-request-context';

/**
 * Refuses a request whose argument-like params (named by its @McpMethod's
 * `limitedParams`) pass limits.argument_*, before any guard, pipe, validator
 * or the ledger's redactor walks them.
 */
@Injectable()
export class ArgumentLimitsService {
  private readonly limits: ArgumentLimits;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {
    this.limits = config.limits;
  }

  enforce(params: JsonRpcParams, fields: readonly string[], context: McpRequestContext): void {
    for (const field of fields) {
      if (params[field] === undefined) continue;
      const breach = findArgumentLimitBreach(params[field], this.limits);
      if (breach === undefined) continue;
      this.metrics.recordLimitRefusal(breach.limit);
      context.call.argumentsOverLimit = `limits.${breach.limit}`;
      throw limitExceeded(ErrorCode.InvalidParams, breach.limit, breach.max, `params.${field}`);
    }
  }
}
