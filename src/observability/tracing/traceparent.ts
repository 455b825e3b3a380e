import { randomFillSync } from 'node:crypto';

/** The parent a request brought in a W3C `traceparent` (HTTP header or `params._meta`). */
export interface TraceParent {
  /** 32 lowercase hex digits, never all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits: the caller's span. */
  readonly parentSpanId: string;
  readonly sampled: boolean;
}

/** A traceparent is 55 characters; later versions may append fields, so allow some room. */
export const TRACEPARENT_MAX_CHARS = 256;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^\s]*)?$/;
const ALL_ZERO = /^0+$/;

/** Reads a W3C traceparent; anything malformed, oversized or invalid is no parent at all. */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string' || value.length > TRACEPARENT_MAX_CHARS) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentSpanId, flags, extra] = match;
  // Version ff is forbidden; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && extra !== undefined)) return undefined;
  if (ALL_ZERO.test(traceId) || ALL_ZERO.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

export function newTraceId(): string {
  return randomHex(16);
}

export function newSpanId(): string {
  return randomHex(8);
}

/**
 * Every request takes two ids: random bytes are drawn a pool at a time, as
 * crypto.randomUUID() does, since each call to the system's generator costs
 * more than the rest of making the ids.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = 0;

function randomHex(bytes: number): string {
  if (taken + bytes > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    taken = 0;
  }
  const hex = pool.toString('hex', taken, taken + bytes);
  taken += bytes;
  return hex;
}
