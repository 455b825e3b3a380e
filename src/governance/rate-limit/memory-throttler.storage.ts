import { OnApplicationShutdown } from '@nestjs/common';
import { RateLimitStorage, ThrottlerStorageRecord, wholeSeconds } from './throttler-record';

interface WindowCounter {
  hits: number;
  /** When the current window ends (ms since the epoch). */
  windowEnds: number;
  /** When a block (block duration > 0) ends; 0 when not blocked. */
  blockedUntil: number;
  /** The hit count that started the block, reported while it lasts. */
  blockedHits: number;
}

/** How often expired counters are dropped, so that clients who went away cost nothing. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * In-process ThrottlerStorage: one counter per key and window, O(1) per hit.
 *
 * @nestjs/throttler's own ThrottlerStorageService keeps one timestamp per hit
 * and scans them all on every hit; with a daily window that is hundreds of
 * thousands of entries per client, so each call grows slower until
 * `Math.min(...hits)` overflows the stack. This store has the fixed-window
 * semantics of RedisThrottlerStorage (the first hit opens a window of `ttl`),
 * so one replica and many behave alike; the contract spec runs against both.
 */
export class MemoryThrottlerStorage implements RateLimitStorage, OnApplicationShutdown {
  /**
   * Per throttler, then per key: no `${throttler}:${key}` string is built
   * (and hashed by the map) twice per call.
   */
  private readonly counters = new Map<string, Map<string, WindowCounter>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord {
    let counters = this.counters.get(throttlerName);
    if (counters === undefined) {
      counters = new Map();
      this.counters.set(throttlerName, counters);
    }
    return this.hit(counters, key, ttl, limit, blockDuration);
  }

  /** Counters currently held (for tests and the sweep). */
  get size(): number {
    let size = 0;
    for (const counters of this.counters.values()) size += counters.size;
    return size;
  }

  /** Drops counters whose window and block are both over. */
  sweep(): void {
    const now = this.now();
    for (const counters of this.counters.values()) {
      for (const [key, counter] of counters) {
        if (counter.windowEnds <= now && counter.blockedUntil <= now) counters.delete(key);
      }
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  private hit(
    counters: Map<string, WindowCounter>,
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): ThrottlerStorageRecord {
    const now = this.now();
    let counter = counters.get(key);
    if (counter && counter.blockedUntil > now) {
      return blocked(counter.blockedHits, counter.blockedUntil - now);
    }
    if (!counter || counter.windowEnds <= now) {
      counter = { hits: 0, windowEnds: now + ttl, blockedUntil: 0, blockedHits: 0 };
      counters.set(key, counter);
    }
    const windowLeft = counter.windowEnds - now;
    if (blockDuration <= 0 && counter.hits >= limit) {
      // Refused and not counted: the client may retry once the window has room.
      return blocked(counter.hits + 1, windowLeft);
    }
    counter.hits++;
    if (blockDuration > 0 && counter.hits > limit) {
      // The crossing hit starts a block; the count restarts after it.
      counter.blockedUntil = now + blockDuration;
      counter.blockedHits = counter.hits;
      counter.hits = 0;
      counter.windowEnds = now;
      return blocked(counter.blockedHits, blockDuration);
    }
    return {
      totalHits: counter.hits,
      timeToExpire: wholeSeconds(windowLeft),
      isBlocked: false,
      timeToBlockExpire: 0,
    };
  }
}

function blocked(totalHits: number, msLeft: number): ThrottlerStorageRecord {
  return {
    totalHits,
    timeToExpire: wholeSeconds(msLeft),
    isBlocked: true,
    timeToBlockExpire: wholeSeconds(msLeft),
  };
}
