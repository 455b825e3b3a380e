import type Redis from 'ioredis';
import { setTimeout as delay } from 'node:timers/promises';
import { TaskFilter, TaskRecord } from './task-record';
import { ActiveLimits, CreateOutcome, TaskStore } from './task.store';
import { isTerminal } from './tasks.constants';

/** A record outlives its TTL this long while unfinished, so its runner can still end it. */
const RUNNING_GRACE_MS = 60_000;
/** Compare-and-set attempts of one update before it gives up (contention on one task is rare). */
const UPDATE_ATTEMPTS = 20;
/** The longest pause between two attempts: writers that collided spread out instead of colliding again. */
const UPDATE_BACKOFF_MAX_MS = 50;
/** Index entries read per admin list page, at most (filtering happens after the read). */
const INDEX_SCAN = 2_000;

/** Drops ids whose record expired, then refuses when a set is still full; else stores the task. */
const CREATE_SCRIPT = `
local function full(set, max)
  if redis.call('SCARD', set) < max then return false end
  for _, id in ipairs(redis.call('SMEMBERS', set)) do
    if redis.call('EXISTS', ARGV[7] .. id) == 0 then redis.call('SREM', set, id) end
  end
  return redis.call('SCARD', set) >= max
end
if full(KEYS[2], tonumber(ARGV[5])) then return 'gateway_limit' end
if full(KEYS[3], tonumber(ARGV[4])) then return 'client_limit' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[3])
return 'created'
`;

/** Writes the new record only if the stored one is still the one the change was made from. */
const SWAP_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if ARGV[4] == '1' then
  redis.call('SREM', KEYS[2], ARGV[5])
  redis.call('SREM', KEYS[3], ARGV[5])
end
return 1
`;

/**
 * Tasks in Redis (`state.driver: redis`): one JSON value per task that
 * expires with its TTL, a set of active ids for the gateway and one per
 * client (the concurrency limits), and an index by creation time for the
 * admin list. Creation checks the limits in one script; updates are
 * compare-and-set, retried, so replicas never lose each other's changes.
 */
export class RedisTaskStore extends TaskStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number,
  ) {
    super();
  }

  async create(task: TaskRecord, limits: ActiveLimits): Promise<CreateOutcome> {
    const outcome = await this.redis.eval(
      CREATE_SCRIPT,
      4,
      this.taskKey(task.taskId),
      this.activeKey(),
      this.activeKey(task.clientId),
      this.indexKey(),
      JSON.stringify(task),
      String(this.expiryMs(task)),
      task.taskId,
      String(limits.perClient),
      String(limits.total),
      String(task.createdAt),
      `${this.prefix}task:`,
    );
    return outcome as CreateOutcome;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.redis.get(this.taskKey(taskId));
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async update(
    taskId: string,
    change: (task: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const text = await this.redis.get(this.taskKey(taskId));
      if (text === null) return undefined;
      const current = JSON.parse(text) as TaskRecord;
      const next = change(current);
      if (next === undefined) return current;
      const swapped = await this.redis.eval(
        SWAP_SCRIPT,
        3,
        this.taskKey(taskId),
        this.activeKey(),
        this.activeKey(current.clientId),
        text,
        JSON.stringify(next),
        String(this.expiryMs(next)),
        isTerminal(next.status) ? '1' : '0',
        taskId,
      );
      if (swapped === 1) return next;
      await delay(Math.random() * Math.min(UPDATE_BACKOFF_MAX_MS, 2 ** attempt));
    }
    throw new Error(`task ${taskId} changed ${UPDATE_ATTEMPTS} times while one update was made`);
  }

  async list(filter: TaskFilter): Promise<TaskRecord[]> {
    const ids = await this.redis.zrevrange(this.indexKey(), 0, INDEX_SCAN - 1);
    const found: TaskRecord[] = [];
    for (let i = 0; i < ids.length && found.length < filter.limit; i += 100) {
      const batch = ids.slice(i, i + 100);
      const texts = await this.redis.mget(batch.map((id) => this.taskKey(id)));
      for (const text of texts) {
        if (text === null) continue;
        const task = JSON.parse(text) as TaskRecord;
        if (filter.clientId !== undefined && task.clientId !== filter.clientId) continue;
        if (filter.status !== undefined && task.status !== filter.status) continue;
        found.push(task);
        if (found.length >= filter.limit) break;
      }
    }
    return found;
  }

  async unfinished(): Promise<TaskRecord[]> {
    const ids = await this.redis.smembers(this.activeKey());
    if (ids.length === 0) return [];
    const texts = await this.redis.mget(ids.map((id) => this.taskKey(id)));
    return texts
      .filter((text): text is string => text !== null)
      .map((text) => JSON.parse(text) as TaskRecord)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Records expire by themselves; the index forgets entries older than any record can be. */
  sweep(now: number): Promise<number> {
    return this.redis.zremrangebyscore(
      this.indexKey(),
      '-inf',
      now - this.ttlMs - RUNNING_GRACE_MS,
    );
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  private expiryMs(task: TaskRecord): number {
    const left = task.createdAt + task.ttlMs - Date.now();
    return isTerminal(task.status) ? Math.max(left, 1) : Math.max(left, 0) + RUNNING_GRACE_MS;
  }

  private taskKey(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private activeKey(clientId?: string): string {
    return clientId === undefined
      ? `${this.prefix}tasks:active`
      : `${this.prefix}tasks:active:${clientId}`;
  }

  private indexKey(): string {
    return `${this.prefix}tasks:index`;
  }
}
