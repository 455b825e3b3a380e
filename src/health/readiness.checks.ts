import { Injectable } from '@nestjs/common';
import { HealthIndicatorFunction } from '@nestjs/terminus';
import { RedisHealthIndicator } from '../governance/redis/redis.health';
import { LedgerHealthIndicator } from '../ledger/ledger.health';
import { TasksHealthIndicator } from '../tasks/tasks.health';
import { GatewayHealthIndicator } from './gateway.health';
import { UpstreamsHealthIndicator } from './upstreams.health';

/**
 * Every dependency GET /health/ready and GET /admin/health list, and so
 * what fails readiness: the gateway itself (draining, no methods), the
 * ledger (a call that cannot be recorded is refused), Redis in redis mode
 * (calls cannot be metered), the task store and queue, and an upstream
 * marked `required`. Other upstreams never fail it; the detail names them.
 */
@Injectable()
export class ReadinessChecks {
  constructor(
    private readonly gateway: GatewayHealthIndicator,
    private readonly ledger: LedgerHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly tasks: TasksHealthIndicator,
    private readonly upstreams: UpstreamsHealthIndicator,
  ) {}

  /** `detailed` is the admin view: the ledger's writer and every upstream, one by one. */
  list(detailed = false): HealthIndicatorFunction[] {
    const checks: HealthIndicatorFunction[] = [
      () => this.gateway.check(),
      () => this.ledger.check('ledger', detailed),
      () => this.tasks.checkStore(),
      () => this.tasks.checkQueue(),
      () => this.upstreams.check('upstreams', detailed),
    ];
    if (this.redis.enabled) checks.push(() => this.redis.check());
    return checks;
  }
}
