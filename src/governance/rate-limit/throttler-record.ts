import { ThrottlerStorage } from '@nestjs/throttler';

/** The record type is not exported by the package's index; its shape is the method's result. */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * @nestjs/throttler's storage as the gateway's stores serve it: the
 * in-process one counts a hit at once, Redis answers with a promise.
 */
export interface RateLimitStorage {
  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord | Promise<ThrottlerStorageRecord>;
}

/** Whole seconds, rounded up, as @nestjs/throttler's own store reports them. */
export function wholeSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
