import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ReadinessChecks } from './readiness.checks';

/** Kubernetes probes: /health is liveness (the process answers), /health/ready gates traffic. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly checks: ReadinessChecks,
  ) {}

  /** No I/O: a dependency outage must never make an orchestrator restart a healthy process. */
  @Get()
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check(this.checks.list());
  }
}
