import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { GatewayHealthIndicator } from './gateway.health';

/** Kubernetes probes: /health is liveness (the process answers), /health/ready gates traffic. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly gateway: GatewayHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.gateway.check()]);
  }
}
