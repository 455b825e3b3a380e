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
 * V8's allocation-site pretenuring is off for the gateway: V8 may otherwise
 * decide, per allocation site, to allocate a site's objects straight in the
 * old generation. Under load it judged the sites of per-call objects
 * (request contexts, rate-limit counts, promises) long-lived and pretenured
 * them: with 100 stdio calls in flight, ~2.4 KB of every call reached the
 * old generation and died there (~1 KB with pretenuring off), and a full
 * collection came every ~16,000 calls. Off, most of those objects die young.
 * Measured in interleaved runs on the bench's machine: stdio with 100 calls
 * in flight ~15 % more calls/s (no full collection in 10,000 calls);
 * HTTP tools/call ~40-50 % more requests/s, p99 halved, RSS within 5 MiB.
 * Objects that do live long cost one more scavenge copy before promotion.
 */
const NO_PRETENURING = '--no-allocation-site-pretenuring';

interface HeapFlag {
  /** Matches the flag in any spelling V8 accepts (dashes or underscores, `--no-` form). */
  chosen: RegExp;
  value(transport: TransportKind): string;
}

const HEAP_FLAGS: readonly HeapFlag[] = [
  {
    chosen: /--heap[-_]growing[-_]percent\b/,
    value: (transport) => `--heap-growing-percent=${HEAP_GROWING_PERCENT[transport]}`,
  },
  {
    chosen: /--(no[-_])?allocation[-_]site[-_]pretenuring\b/,
    value: () => NO_PRETENURING,
  },
];

/**
 * Applies the heap settings above for the transport, each unless the operator
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
    setFlagsFromString(value);
    applied.push(value);
  }
  return applied;
}
