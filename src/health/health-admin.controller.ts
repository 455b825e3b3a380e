import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { AdminController } from '../admin/admin-controller.decorator';
import { ADMIN_HEALTH_MAX_LISTED_SERVERS, HEALTH_CHECK_TIMEOUT_MS } from './health.constants';
import { ReadinessChecks } from './readiness.checks';

/** The readiness checks with the detail an operator needs and a load balancer does not. */
@AdminController('health', 'health')
export class HealthAdminController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly checks: ReadinessChecks,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({
    summary: 'Every dependency with its status and latency; 503 when readiness fails',
    description:
      'The checks of GET /health/ready (same verdict), each I/O check bounded by ' +
      `${HEALTH_CHECK_TIMEOUT_MS} ms, plus the ledger writer's backlog and commit counts and ` +
      `every upstream server (state, since, restarts, last error), at most ` +
      `${ADMIN_HEALTH_MAX_LISTED_SERVERS} of them (server_list_truncated says how many more).`,
  })
  check() {
    return this.health.check(this.checks.list(true));
  }
}
