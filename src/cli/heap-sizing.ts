import { setFlagsFromString } from 'node:v8';
import { TransportKind } from '../config/gateway-config';

/**
 * How far V8 lets the old generation grow past what survived the last full
 * collection before it collects again, per transport. V8's own factor rises
 * to 4x when collections are fast, which they are for a gateway whose calls
 * leave little behind.
 *
 * - http, 1.5x: replicas run in containers with memory limits. Under load
 *   V8's own factor swelled the heap to three times its live size (RSS
 *   230-290 MiB against ~150 for a bare Nest controller); 1.5x holds it near
 *   170-200 MiB for a few percent more collection work.
 * - stdio, 2x: one process per IDE or agent on the user's machine, where a
 *   call's latency counts for more than some MiB of heap. At 1.5x, full
 *   collections came every ~8,000 calls, each one marking the whole live
 *   heap (~35 MiB: Nest, the registries, the drivers) on V8's helper
 *   threads, which share the two cores with the client; at 2x, about half as
 *   often, for ~15 MiB more RSS: 10-15 % less CPU per call with 100 calls in
 *   flight.
 *
 * Measured with `npm run bench` (BENCHMARKS.md).
 */
export const HEAP_GROWING_PERCENT: Readonly<Record<TransportKind, number>> = {
  http: 50,
  stdio: 100,
};

/**
 * Whether V8 may decide, per allocation site, to allocate a site's objects
 * straight in the old generation ("pretenuring"), per transport.
 *
 * - stdio, off: with many calls in flight, V8 judged sites of per-call
 *   objects (request contexts, rate-limit counts, promises) long-lived and
 *   pretenured them: ~2.4 KB of every call went to the old generation and
 *   died there, ~24 MiB per 10,000 calls, so a full collection came every
 *   ~16,000 calls. Off, those objects die young as they should: no full
 *   collection in 10,000 calls with 100 in flight, ~15 % more calls/s
 *   (interleaved runs of the stdio bench, gc events counted in the server).
 *   A call's objects cost one more scavenge copy when they do live long.
 * - http: left to V8 (not measured to help; the RSS target is what binds).
 */
export const ALLOCATION_SITE_PRETENURING: Readonly<Record<TransportKind, boolean>> = {
  http: true,
  stdio: false,
};

interface HeapFlag {
  /** Matches the flag in any spelling V8 accepts (dashes or underscores, `--no-` form). */
  chosen: RegExp;
  value(transport: TransportKind): string | undefined;
}

const HEAP_FLAGS: readonly HeapFlag[] = [
  {
    chosen: /--heap[-_]growing[-_]percent\b/,
    value: (transport) => `--heap-growing-percent=${HEAP_GROWING_PERCENT[transport]}`,
  },
  {
    chosen: /--(no[-_])?allocation[-_]site[-_]pretenuring\b/,
    value: (transport) =>
      ALLOCATION_SITE_PRETENURING[transport] ? undefined : '--no-allocation-site-pretenuring',
  },
];

/**
 * Applies the transport's heap settings (above), each unless the operator
 * chose it with NODE_OPTIONS or a node flag; returns the flags it set. V8
 * reads both at every collection, so setting them once the process runs
 * (and knows its transport) takes effect for the heap it grows.
 */
export function applyHeapSizing(
  transport: TransportKind,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): string[] {
  const applied: string[] = [];
  for (const flag of HEAP_FLAGS) {
    if (execArgv.some((arg) => flag.chosen.test(arg)) || flag.chosen.test(nodeOptions)) continue;
    const value = flag.value(transport);
    if (value === undefined) continue;
    setFlagsFromString(value);
    applied.push(value);
  }
  return applied;
}
