import { Provider } from '@nestjs/common';
import { REDIS_SPEND_PREFIX } from '../governance.constants';
import { GovernanceRedis } from '../redis/governance-redis';
import { MemorySpendStore } from './memory-spend.store';
import { RedisSpendStore } from './redis-spend.store';
import { SPEND_STORE, SpendStore } from './spend.store';

/** In-process spend cache (state.driver memory) or one shared by every replica (redis). */
export const spendStoreProvider: Provider = {
  provide: SPEND_STORE,
  inject: [GovernanceRedis],
  useFactory: (redis: GovernanceRedis): SpendStore =>
    redis.client
      ? new RedisSpendStore(redis.client, `${redis.prefix}${REDIS_SPEND_PREFIX}`)
      : new MemorySpendStore(),
};
