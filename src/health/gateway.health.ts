import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { McpMethodRegistry } from '../json-rpc/mcp-method.registry';
import { SessionRegistry } from '../session/session.registry';
import { ShutdownState } from './shutdown.state';

/** Readiness of the gateway itself: MCP methods registered and not draining. */
@Injectable()
export class GatewayHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly methods: McpMethodRegistry,
    private readonly sessions: SessionRegistry,
    private readonly shutdown: ShutdownState,
  ) {}

  check(key = 'gateway'): HealthIndicatorResult {
    const session = this.indicator.check(key);
    // Nothing here does I/O: the latency is listed like every other dependency's, and is 0.
    const details = {
      methods: this.methods.names().length,
      sessions: this.sessions.size,
      latencyMs: 0,
    };
    if (this.shutdown.draining) return session.down({ ...details, reason: 'shutting down' });
    if (details.methods === 0)
      return session.down({ ...details, reason: 'no MCP methods registered' });
    return session.up(details);
  }
}
