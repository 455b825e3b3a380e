import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { McpMetrics } from '../observability/mcp.metrics';
import { MessageShapeLimits, parseFrame } from './json-rpc.parser';
import { InboundFrame } from './json-rpc.types';

/**
 * parseFrame with the configured limits.message_* and their refusals counted,
 * for every transport (an HTTP body, a legacy /messages body, a stdio line).
 */
@Injectable()
export class FrameParser {
  private readonly limits: MessageShapeLimits;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {
    this.limits = config.limits;
  }

  parse(raw: string | Buffer): InboundFrame {
    const frame = parseFrame(raw, this.limits);
    if (frame.kind === 'unparseable' && frame.limit !== undefined) {
      this.metrics.recordLimitRefusal(frame.limit);
    }
    return frame;
  }
}
