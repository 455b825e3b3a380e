import { newSpanId, parseTraceparent, TraceParent } from './traceparent';

const LEGACY_TRACE_ID = /^[0-9a-f]{32}$/;
const ALL_ZERO = /^0+$/;

/**
 * The trace a request belongs to, as its caller named it: the message's own
 * `params._meta.traceparent` first (in a batch it is more specific than the
 * one HTTP header all elements share), then the `traceparent` header, then a
 * legacy `_meta.traceId` of 32 hex digits. Anything malformed is ignored.
 */
export function incomingParent(
  params: Record<string, unknown> | undefined,
  header: string | undefined,
): TraceParent | undefined {
  const meta = params?._meta;
  const own = isRecord(meta) ? parseTraceparent(meta.traceparent) : undefined;
  if (own) return own;
  const shared = header === undefined ? undefined : parseTraceparent(header);
  if (shared) return shared;
  return isRecord(meta) ? legacyParent(meta.traceId) : undefined;
}

/**
 * A bare trace id correlates logs and ledger rows but names no caller span
 * and asks for no sampling: the parent span id is made up, and not sampled.
 */
function legacyParent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string' || value.length !== 32) return undefined;
  const traceId = value.toLowerCase();
  if (!LEGACY_TRACE_ID.test(traceId) || ALL_ZERO.test(traceId)) return undefined;
  return { traceId, parentSpanId: newSpanId(), sampled: false };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
