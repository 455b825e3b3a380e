import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { servicesAvailable, tcpCheck } from '../../../test/support/service-availability';
import { MemorySpendStore } from './memory-spend.store';
import { RedisSpendStore } from './redis-spend.store';
import { BudgetClaim, SpendStore } from './spend.store';

/**
 * The spend store contract: the in-process store and the Redis one reserve,
 * settle and seed alike, so one suite runs against both.
 */
interface StoreUnderTest {
  store: SpendStore;
  close(): Promise<void>;
}

const REDIS_URL = 'redis://127.0.0.1:6379';
const MONTH = '2026-11';
const CLIENT = 'client-a';
const HOUR = 3_600_000;

function memoryStore(): StoreUnderTest {
  return { store: new MemorySpendStore(), close: () => Promise.resolve() };
}

function redisStore(): StoreUnderTest {
  const redis = new Redis(REDIS_URL, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  const prefix = `owlclaw-test:${randomUUID()}:`;
  return {
    store: new RedisSpendStore(redis, prefix),
    close: async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}

let claims = 0;
function claim(amount: number, budget: number, overrides: Partial<BudgetClaim> = {}): BudgetClaim {
  return { id: `c${++claims}`, amount, budget, refuseWhenSpent: true, ttlMs: HOUR, ...overrides };
}

const seed = (value: number, ttlMs = HOUR) => ({ value, ttlMs });

function contract(name: string, open: () => StoreUnderTest): void {
  describe(`${name} (SpendStore contract)`, () => {
    let subject: StoreUnderTest;
    let store: SpendStore;
    beforeEach(() => {
      subject = open();
      store = subject.store;
    });
    afterEach(() => subject.close());

    it('answers cold without a seed, and the first seed is the only one', async () => {
      expect(await store.reserve(CLIENT, MONTH, claim(1, 10))).toEqual({ status: 'cold' });
      expect(await store.get(CLIENT, MONTH)).toBeUndefined();
      expect(await store.reserve(CLIENT, MONTH, claim(1, 10), seed(4))).toEqual({
        status: 'reserved',
        spent: 4,
        reserved: 0,
      });
      // A replica that read the ledger later seeds nothing: the cached spend has the call above.
      expect(await store.reserve(CLIENT, MONTH, claim(1, 10), seed(0))).toEqual({
        status: 'reserved',
        spent: 4,
        reserved: 1,
      });
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 4, reserved: 2 });
    });

    it('reserves exactly what the budget covers under 300 concurrent claims on a cold spend', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 300 }, () =>
          Promise.resolve(store.reserve(CLIENT, MONTH, claim(1, 100), seed(10))),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'reserved')).toHaveLength(90);
      expect(outcomes.filter((o) => o.status === 'refused')).toHaveLength(210);
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 10, reserved: 90 });
    });

    it('settles a claim with what the call cost, releases one with 0', async () => {
      const first = claim(4, 10);
      const second = claim(2, 10);
      await store.reserve(CLIENT, MONTH, first, seed(0));
      await store.reserve(CLIENT, MONTH, second);
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 0, reserved: 6 });
      expect(await store.settle(CLIENT, MONTH, first.id, 3.5)).toBe(3.5);
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 3.5, reserved: 2 });
      expect(await store.settle(CLIENT, MONTH, second.id, 0)).toBe(3.5);
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 3.5, reserved: 0 });
      // Settling twice releases nothing twice.
      expect(await store.settle(CLIENT, MONTH, second.id, 0)).toBe(3.5);
      // A call that reserved nothing (governance off) still adds its cost.
      expect(await store.settle(CLIENT, MONTH, undefined, 1)).toBe(4.5);
    });

    it('settles a report above the claim at the claim: what was reserved is the most a call adds', async () => {
      const held = claim(2, 10);
      await store.reserve(CLIENT, MONTH, held, seed(0));
      expect(await store.settle(CLIENT, MONTH, held.id, 7)).toBe(2);
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 2, reserved: 0 });
    });

    it.each([
      [1, 3, 5],
      [0.5, 5, 10],
    ])(
      'never lets 200 concurrent calls reserving %p and reporting %p spend past a budget of 5',
      async (amount, reported, fit) => {
        const budget = 5;
        const outcomes = await Promise.all(
          Array.from({ length: 200 }, async (_, i) => {
            const own = claim(amount, budget);
            const outcome = await store.reserve(CLIENT, MONTH, own, seed(0));
            if (outcome.status !== 'reserved') return outcome.status;
            // Settles interleave with later reservations, some at once, some a few turns later.
            for (let turn = 0; turn < i % 4; turn++) await delay(0);
            const spent = await store.settle(CLIENT, MONTH, own.id, reported);
            expect(spent).toBeLessThanOrEqual(budget);
            return outcome.status;
          }),
        );
        expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(fit);
        expect(await store.get(CLIENT, MONTH)).toEqual({ spent: budget, reserved: 0 });
      },
    );

    it('adds nothing to a spend that is not cached: the ledger has the call', async () => {
      expect(await store.settle(CLIENT, MONTH, 'nobody', 5)).toBeUndefined();
      expect(await store.get(CLIENT, MONTH)).toBeUndefined();
    });

    it('refuses what does not fit, counting claims in flight, and says what stood before', async () => {
      await store.reserve(CLIENT, MONTH, claim(6, 10), seed(1));
      expect(await store.reserve(CLIENT, MONTH, claim(4, 10))).toEqual({
        status: 'refused',
        spent: 1,
        reserved: 6,
      });
      expect(await store.reserve(CLIENT, MONTH, claim(3, 10))).toEqual({
        status: 'reserved',
        spent: 1,
        reserved: 6,
      });
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 1, reserved: 9 });
    });

    it('refuses a free claim that may report a cost once nothing is left, never a read', async () => {
      const last = claim(1, 10);
      await store.reserve(CLIENT, MONTH, claim(0, 10), seed(9));
      await store.reserve(CLIENT, MONTH, last);
      expect((await store.reserve(CLIENT, MONTH, claim(0, 10))).status).toBe('refused');
      const read = claim(0, 10, { refuseWhenSpent: false });
      expect((await store.reserve(CLIENT, MONTH, read)).status).toBe('reserved');
      // Released, the last unit is left again.
      await store.settle(CLIENT, MONTH, last.id, 0);
      expect((await store.reserve(CLIENT, MONTH, claim(0, 10))).status).toBe('reserved');
    });

    it('checks a free claim without holding it', async () => {
      await store.reserve(CLIENT, MONTH, claim(0, 10), seed(2));
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 2, reserved: 0 });
    });

    it('is exact with fractions: 0.1 + 0.2 fits 0.3, and nothing held is exactly 0', async () => {
      const a = claim(0.1, 0.3);
      const b = claim(0.2, 0.3);
      expect((await store.reserve(CLIENT, MONTH, a, seed(0))).status).toBe('reserved');
      expect((await store.reserve(CLIENT, MONTH, b)).status).toBe('reserved');
      expect((await store.reserve(CLIENT, MONTH, claim(0.000001, 0.3))).status).toBe('refused');
      await store.settle(CLIENT, MONTH, a.id, 0.1);
      await store.settle(CLIENT, MONTH, b.id, 0);
      expect((await store.get(CLIENT, MONTH))?.reserved).toBe(0);
    });

    it('lets a claim lapse after its ttl (a replica died mid-call)', async () => {
      await store.reserve(CLIENT, MONTH, claim(8, 10, { ttlMs: 200 }), seed(0));
      expect((await store.reserve(CLIENT, MONTH, claim(8, 10))).status).toBe('refused');
      await delay(300);
      expect((await store.reserve(CLIENT, MONTH, claim(8, 10))).status).toBe('reserved');
      expect(await store.get(CLIENT, MONTH)).toEqual({ spent: 0, reserved: 8 });
    });

    it('keeps the spend while a claim on it is held, past the seed ttl', async () => {
      const held = claim(2, 10, { ttlMs: 5_000 });
      await store.reserve(CLIENT, MONTH, held, seed(3, 100));
      await delay(250);
      expect(await store.settle(CLIENT, MONTH, held.id, 2)).toBe(5);
    });

    it('lets the spend expire after its ttl when nothing is held', async () => {
      const quick = claim(1, 10, { ttlMs: 100 });
      await store.reserve(CLIENT, MONTH, quick, seed(3, 100));
      await store.settle(CLIENT, MONTH, quick.id, 1);
      await delay(250);
      expect(await store.reserve(CLIENT, MONTH, claim(1, 10))).toEqual({ status: 'cold' });
    });

    it('keeps clients and months apart', async () => {
      await store.reserve(CLIENT, MONTH, claim(10, 10), seed(0));
      expect(await store.reserve('client-b', MONTH, claim(1, 10))).toEqual({ status: 'cold' });
      expect(await store.reserve(CLIENT, '2026-12', claim(1, 10))).toEqual({ status: 'cold' });
    });
  });
}

contract('MemorySpendStore', memoryStore);

// Redis must answer for the Redis half; when it does not, say so loudly and skip (or fail in CI).
const redisAvailable = servicesAvailable('RedisSpendStore contract', [
  tcpCheck('Redis', '127.0.0.1', 6379),
]);
(redisAvailable ? contract : (name: string) => describe.skip(name, () => undefined))(
  'RedisSpendStore',
  redisStore,
);
