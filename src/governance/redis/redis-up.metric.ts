import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { withDeadline } from '../../common/with-deadline';
import { HEALTH_CHECK_TIMEOUT_MS } from '../../health/health.constants';
import { ScrapeTimeGauge } from '../../observability/scrape-time.gauge';
import { REDIS_UP } from '../governance.constants';
import { GovernanceRedis } from './governance-redis';

/**
 * mcp_redis_up: 1 while Redis answers a PING at scrape time, else 0. Only
 * in redis mode: on the memory driver the family does not exist at all, so
 * an alert on `mcp_redis_up == 0` cannot fire there.
 */
@Injectable()
export class RedisUpMetric implements OnModuleInit, OnApplicationShutdown {
  private readonly gauge?: ScrapeTimeGauge;

  constructor(redis: GovernanceRedis) {
    if (!redis.client) return;
    this.gauge = new ScrapeTimeGauge(
      {
        name: REDIS_UP,
        help: `1 while Redis (state.redis_url) answers a PING within ${HEALTH_CHECK_TIMEOUT_MS} ms, else 0; absent on the memory driver`,
      },
      (gauge) =>
        withDeadline(() => redis.ping(), HEALTH_CHECK_TIMEOUT_MS).then(
          () => gauge.set(1),
          () => gauge.set(0),
        ),
    );
  }

  onModuleInit(): void {
    this.gauge?.start();
  }

  onApplicationShutdown(): void {
    this.gauge?.stop();
  }
}
