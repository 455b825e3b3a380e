import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { servicesAvailable, tcpCheck } from '../../../test/support/service-availability';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { RateLimitStorage } from './throttler-record';

/**
 * The counter store contract: the in-process store and the Redis one must behave alike for everything the rate-limit guard relies
 * on, so one suite runs against both.
 */
interface StorageUnderTest {
  storage: RateLimitStorage;
  close(): Promise<void>;
}

const REDIS_URL = 'redis://127.0.0.1:6379';

function memoryStorage(): StorageUnderTest {
  const storage = new MemoryThrottlerStorage();
  return { storage, close: () => Promise.resolve(storage.onApplicationShutdown()) };
}

function redisStorage(): StorageUnderTest {
  const redis = new Redis(REDIS_URL, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  const prefix = `owlclaw-test:${randomUUID()}:`;
  return {
    storage: new RedisThrottlerStorage(redis, prefix),
    close: async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}

function contract(name: string, open: () => StorageUnderTest): void {
  describe(`${name} (ThrottlerStorage contract)`, () => {
    let subject: StorageUnderTest;
    let storage: RateLimitStorage;
    beforeEach(() => {
      subject = open();
      storage = subject.storage;
    });
    afterEach(() => subject.close());

    it('counts hits per key and says when the window resets', async () => {
      const records = [];
      for (let i = 0; i < 3; i++)
        records.push(await storage.increment('k', 2_000, 10, 0, 'minute'));
      expect(records.map((r) => r.totalHits)).toEqual([1, 2, 3]);
      for (const record of records) {
        expect(record.isBlocked).toBe(false);
        expect(record.timeToBlockExpire).toBe(0);
        expect(record.timeToExpire).toBeGreaterThanOrEqual(1);
        expect(record.timeToExpire).toBeLessThanOrEqual(2);
      }
    });

    it('refuses hits over the limit without counting them (block duration 0)', async () => {
      await storage.increment('k', 2_000, 2, 0, 'minute');
      await storage.increment('k', 2_000, 2, 0, 'minute');
      const refused = await storage.increment('k', 2_000, 2, 0, 'minute');
      const again = await storage.increment('k', 2_000, 2, 0, 'minute');
      for (const record of [refused, again]) {
        expect(record).toMatchObject({ isBlocked: true, totalHits: 3 });
        expect(record.timeToBlockExpire).toBeGreaterThanOrEqual(1);
      }
    });

    it('starts a new window once the ttl has passed', async () => {
      await storage.increment('k', 300, 2, 0, 'minute');
      await storage.increment('k', 300, 2, 0, 'minute');
      expect((await storage.increment('k', 300, 2, 0, 'minute')).isBlocked).toBe(true);
      await delay(400);
      expect(await storage.increment('k', 300, 2, 0, 'minute')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
    });

    it('keeps keys and throttlers apart', async () => {
      await storage.increment('a', 2_000, 1, 0, 'minute');
      expect((await storage.increment('a', 2_000, 1, 0, 'minute')).isBlocked).toBe(true);
      expect(await storage.increment('b', 2_000, 1, 0, 'minute')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
      expect(await storage.increment('a', 2_000, 1, 0, 'day')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
    });

    it('blocks for the block duration once the limit is crossed, then counts afresh', async () => {
      expect((await storage.increment('k', 300, 1, 700, 'minute')).isBlocked).toBe(false);
      const crossing = await storage.increment('k', 300, 1, 700, 'minute');
      expect(crossing).toMatchObject({ isBlocked: true, totalHits: 2, timeToBlockExpire: 1 });
      await delay(400);
      // The window is over, the block is not.
      expect((await storage.increment('k', 300, 1, 700, 'minute')).isBlocked).toBe(true);
      await delay(400);
      expect(await storage.increment('k', 300, 1, 700, 'minute')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
    });

    it('counts 200 concurrent hits exactly once each', async () => {
      const records = await Promise.all(
        Array.from({ length: 200 }, () =>
          Promise.resolve(storage.increment('k', 10_000, 1_000, 0, 'minute')),
        ),
      );
      expect(records.map((r) => r.totalHits).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
    });

    it('lets exactly the limit through under 200 concurrent hits', async () => {
      const records = await Promise.all(
        Array.from({ length: 200 }, () =>
          Promise.resolve(storage.increment('k', 10_000, 60, 0, 'minute')),
        ),
      );
      expect(records.filter((r) => !r.isBlocked)).toHaveLength(60);
    });
  });
}

contract('MemoryThrottlerStorage', memoryStorage);

describe('MemoryThrottlerStorage (in-process only)', () => {
  it('keeps one counter per key and window however many hits it counts', () => {
    // @nestjs/throttler's store kept a timestamp per hit and overflowed the stack near 125k.
    const storage = new MemoryThrottlerStorage();
    let last = storage.increment('k', 86_400_000, 1_000_000, 0, 'day');
    for (let i = 1; i < 300_000; i++)
      last = storage.increment('k', 86_400_000, 1_000_000, 0, 'day');
    expect(last).toMatchObject({ totalHits: 300_000, isBlocked: false });
    expect(storage.size).toBe(1);
    storage.onApplicationShutdown();
  });

  it('sweeps counters whose window and block are over', () => {
    let now = 1_000_000;
    const storage = new MemoryThrottlerStorage(() => now);
    storage.increment('short', 1_000, 10, 0, 'minute');
    storage.increment('long', 60_000, 10, 0, 'minute');
    storage.increment('blocked', 1_000, 0, 120_000, 'minute');
    now += 5_000;
    storage.sweep();
    expect(storage.size).toBe(2);
    now += 120_000;
    storage.sweep();
    expect(storage.size).toBe(0);
    storage.onApplicationShutdown();
  });
});

// Redis must answer for the Redis half; when it does not, say so loudly and skip (or fail in CI).
const redisAvailable = servicesAvailable('RedisThrottlerStorage contract', [
  tcpCheck('Redis', '127.0.0.1', 6379),
]);
(redisAvailable ? contract : (name: string) => describe.skip(name, () => undefined))(
  'RedisThrottlerStorage',
  redisStorage,
);
