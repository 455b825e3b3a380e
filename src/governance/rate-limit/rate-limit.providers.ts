import { ExecutionContext, Provider } from '@nestjs/common';
import { getOptionsToken, getStorageToken, ThrottlerModuleOptions } from '@nestjs/throttler';
import {
  DAY_MS,
  DAY_THROTTLER,
  MINUTE_MS,
  MINUTE_THROTTLER,
  REDIS_RATE_LIMIT_PREFIX,
} from '../governance.constants';
import { governedCallOf } from '../governed-call';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRedis } from '../redis/governance-redis';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { RateLimitStorage } from './throttler-record';

/**
 * The throttlers, read per call so that a rules reload applies at once.
 * Block duration 0: a refused call is not counted, and the client may call
 * again as soon as its window has room.
 */
export const rateLimitOptionsProvider: Provider = {
  provide: getOptionsToken(),
  inject: [QuotaPolicy],
  useFactory: (quotas: QuotaPolicy): ThrottlerModuleOptions => {
    const quotaOf = (context: ExecutionContext) =>
      quotas.quotaFor(governedCallOf(context)?.clientId ?? '');
    return {
      throttlers: [
        {
          name: MINUTE_THROTTLER,
          ttl: MINUTE_MS,
          blockDuration: 0,
          limit: (context) => quotaOf(context).max_calls_per_minute,
        },
        {
          name: DAY_THROTTLER,
          ttl: DAY_MS,
          blockDuration: 0,
          limit: (context) => quotaOf(context).max_calls_per_day,
        },
      ],
    };
  },
};

/** In-process counters (state.driver memory) or Redis shared by every replica. */
export const rateLimitStorageProvider: Provider = {
  provide: getStorageToken(),
  inject: [GovernanceRedis],
  useFactory: (redis: GovernanceRedis): RateLimitStorage =>
    redis.client
      ? new RedisThrottlerStorage(redis.client, `${redis.prefix}${REDIS_RATE_LIMIT_PREFIX}`)
      : new MemoryThrottlerStorage(),
};
