import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { RedisHealthIndicator } from '../governance/redis/redis.health';
import { LedgerHealthIndicator } from '../ledger/ledger.health';
import { GatewayHealthIndicator } from './gateway.health';
import { UpstreamsHealthIndicator } from './upstreams.health';

/** Kubernetes probes: /health is liveness (the process answers), /health/ready gates traffic. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly gateway: GatewayHealthIndicator,
    private readonly ledger: LedgerHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly upstreams: UpstreamsHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    const checks = [
      () => this.gateway.check(),
      () => this.ledger.check(),
      // Fails only while an upstream marked `required` is not serving; the detail names the others.
      () => this.upstreams.check(),
    ];
    // Redis holds the shared quota counters in redis mode; without it calls are refused.
    if (this.redis.enabled) checks.push(() => this.redis.check());
    return this.health.check(checks);
  }
}
