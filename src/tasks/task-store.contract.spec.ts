import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { servicesAvailable, tcpCheck } from '../../test/support/service-availability';
import { SQLITE_MEMORY } from '../config/config-paths';
import { RedisTaskStore } from './redis-task.store';
import { SqliteTaskStore } from './sqlite-task.store';
import { TaskRecord } from './task-record';
import { TaskStore } from './task.store';

/**
 * The TaskStore contract under contention, for the embedded store and the
 * Redis one: many writers changing one task at once (several processes'
 * connections, for Redis) lose no change and are not refused, and of two
 * runners ending a task at once exactly one wins the claim.
 */

const REDIS_URL = 'redis://127.0.0.1:6379';
const TTL_MS = 3_600_000;
/** Writers per store instance, all changing one task at the same moment. */
const WRITERS = 20;
const LIMITS = { perClient: 10, total: 10 };

interface StoresUnderTest {
  /** Instances sharing one backing store (one per process, for Redis). */
  stores: TaskStore[];
  close(): Promise<void>;
}

function sqliteStores(): StoresUnderTest {
  const store = new SqliteTaskStore(SQLITE_MEMORY);
  return { stores: [store], close: () => Promise.resolve(store.close()) };
}

function redisStores(): StoresUnderTest {
  const prefix = `owlclaw-test-${randomUUID().slice(0, 8)}:`;
  const connections = [new Redis(REDIS_URL), new Redis(REDIS_URL), new Redis(REDIS_URL)];
  return {
    stores: connections.map((redis) => new RedisTaskStore(redis, prefix, TTL_MS)),
    close: async () => {
      const keys = await connections[0].keys(`${prefix}*`);
      if (keys.length > 0) await connections[0].del(...keys);
      for (const redis of connections) redis.disconnect();
    },
  };
}

function newTask(taskId: string): TaskRecord {
  const now = Date.now();
  return {
    taskId,
    principal: 'owner\u0000client',
    clientId: 'client',
    tool: 'fx_task_work',
    params: { name: 'fx_task_work', arguments: {} },
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: TTL_MS,
    pollIntervalMs: 1000,
    inputRequests: {},
    answers: {},
    askedKeys: [],
    cancelRequested: false,
    attempts: 0,
    origin: {
      requestId: 1,
      traceId: 'trace',
      sessionId: 'session',
      sessionOwner: 'owner',
      transport: 'streamable-http',
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
    },
  };
}

function contract(name: string, open: () => StoresUnderTest): void {
  describe(`${name} (TaskStore contract under contention)`, () => {
    let subject: StoresUnderTest;

    beforeEach(() => {
      subject = open();
    });
    afterEach(() => subject.close());

    it('applies every one of many simultaneous changes to one task', async () => {
      const [first] = subject.stores;
      expect(await first.create(newTask('busy'), LIMITS)).toBe('created');
      const changes = subject.stores.flatMap((store) =>
        Array.from({ length: WRITERS }, () =>
          store.update('busy', (task) => ({ ...task, attempts: task.attempts + 1 })),
        ),
      );
      const settled = await Promise.allSettled(changes);
      expect(settled.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      expect((await first.get('busy'))?.attempts).toBe(changes.length);
    });

    it('lets exactly one of several simultaneous enders claim a task', async () => {
      const [first] = subject.stores;
      await first.create(newTask('ending'), LIMITS);
      const claims = subject.stores.flatMap((store, i) =>
        [0, 1].map((j) => ({ store, claim: `ender-${i}-${j}` })),
      );
      const claimed = await Promise.all(
        claims.map(({ store, claim }) =>
          store.update('ending', (task) =>
            task.endedBy === undefined ? { ...task, endedBy: claim } : undefined,
          ),
        ),
      );
      const winners = claims.filter(({ claim }, i) => claimed[i]?.endedBy === claim);
      expect(winners).toHaveLength(1);
      expect((await first.get('ending'))?.endedBy).toBe(winners[0].claim);
    });
  });
}

contract('SqliteTaskStore', sqliteStores);

const redisAvailable = servicesAvailable('RedisTaskStore contract', [
  tcpCheck('Redis', '127.0.0.1', 6379),
]);
if (redisAvailable) contract('RedisTaskStore', redisStores);
