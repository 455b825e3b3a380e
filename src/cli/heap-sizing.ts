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
 * Applies the transport's HEAP_GROWING_PERCENT unless the operator chose a
 * value with NODE_OPTIONS or a node flag. V8 reads this flag at every full
 * collection, so setting it once the process runs (and knows its transport)
 * takes effect for the heap it grows.
 */
export function applyHeapSizing(
  transport: TransportKind,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  const chosen = (text: string) => /--heap[-_]growing[-_]percent\b/.test(text);
  if (execArgv.some(chosen) || chosen(nodeOptions)) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT[transport]}`);
  return true;
}
