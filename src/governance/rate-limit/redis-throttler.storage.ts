import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { ThrottlerStorageRecord, wholeSeconds } from './throttler-record';

/*
 * One atomic step per hit: the whole decision runs inside Redis, so any
 * number of replicas share one exact count. KEYS[1] counts hits in the
 * current window (INCR, PEXPIRE on the first hit); KEYS[2] marks a block.
 * ARGV: ttl ms, limit, block duration ms. Returns
 * {totalHits, window ms left, blocked (0/1), block ms left}.
 *
 * Same contract as the in-process MemoryThrottlerStorage (and @nestjs/throttler's own store):
 * - block duration 0: a hit over the limit is refused and not counted; it may
 *   retry when the window resets;
 * - block duration > 0: the hit that crosses the limit starts a block; hits
 *   during the block are refused and not counted; the count restarts after it.
 */
const INCREMENT_SCRIPT = `
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local block = tonumber(ARGV[3])
local blockedFor = redis.call('PTTL', KEYS[2])
if blockedFor > 0 then
  return {tonumber(redis.call('GET', KEYS[2]) or '0'), blockedFor, 1, blockedFor}
end
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('DEL', KEYS[1])
  hits = 0
  left = ttl
end
if block <= 0 and hits >= limit then
  return {hits + 1, left, 1, left}
end
hits = redis.call('INCR', KEYS[1])
if hits == 1 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  left = ttl
end
if block > 0 and hits > limit then
  redis.call('SET', KEYS[2], hits, 'PX', block)
  redis.call('DEL', KEYS[1])
  return {hits, block, 1, block}
end
return {hits, left, 0, 0}
`;

type IncrementReply = [number, number, number, number];

interface ThrottleCommands {
  owlclawThrottle(hitsKey: string, blockKey: string, ...args: number[]): Promise<IncrementReply>;
}

/**
 * ThrottlerStorage on Redis, for several replicas behind a load balancer.
 * Keys: `<prefix>rl:{<throttler>:<key>}` and `...:block` (the braces keep both
 * in one cluster slot, as a script touching two keys needs).
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: Redis & ThrottleCommands;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
  ) {
    redis.defineCommand('owlclawThrottle', { numberOfKeys: 2, lua: INCREMENT_SCRIPT });
    this.redis = redis as Redis & ThrottleCommands;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const base = `${this.keyPrefix}{${throttlerName}:${key}}`;
    const [totalHits, windowMs, blocked, blockMs] = await this.redis.owlclawThrottle(
      base,
      `${base}:block`,
      ttl,
      limit,
      blockDuration,
    );
    return {
      totalHits,
      timeToExpire: wholeSeconds(windowMs),
      isBlocked: blocked === 1,
      timeToBlockExpire: blocked === 1 ? wholeSeconds(blockMs) : 0,
    };
  }
}
