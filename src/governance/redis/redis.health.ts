import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { timedCheck } from '../../health/timed-check';
import { GovernanceRedis } from './governance-redis';

/** Readiness of the shared counter store in redis mode: a replica that cannot meter calls refuses them. */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly redis: GovernanceRedis,
  ) {}

  /** Whether there is a Redis to check at all (state.driver redis). */
  get enabled(): boolean {
    return this.redis.client !== undefined;
  }

  check(key = 'redis'): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    const client = this.redis.client;
    if (!client) return Promise.resolve(session.up({ driver: 'memory', latencyMs: 0 }));
    return timedCheck(session, () => this.redis.ping(), { connection: client.status });
  }
}
