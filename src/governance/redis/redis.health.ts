import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
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

  async check(key = 'redis'): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    const client = this.redis.client;
    if (!client) return session.up({ driver: 'memory' });
    if (!this.redis.ready) return session.down({ connection: client.status });
    const started = Date.now();
    try {
      await client.ping();
      return session.up({ latencyMs: Date.now() - started });
    } catch (err) {
      return session.down({ reason: err instanceof Error ? err.message : String(err) });
    }
  }
}
