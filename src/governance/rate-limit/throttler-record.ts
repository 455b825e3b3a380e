import { ThrottlerStorage } from '@nestjs/throttler';

/** The record type is not exported by the package's index; its shape is the method's result. */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Whole seconds, rounded up, as @nestjs/throttler's own store reports them. */
export function wholeSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
