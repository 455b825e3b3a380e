import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full
 * collection before it collects again: 1.5x here. V8's own factor rises to
 * 4x when collections are fast, which they are for a gateway whose calls
 * leave little behind, so under load the heap swelled to three times its
 * live size (RSS 230-290 MiB against ~150 for a bare Nest controller).
 * 1.5x holds it near 170-180 MiB for a few percent more collection work;
 * measured with `npm run bench` (BENCHMARKS.md).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Applies HEAP_GROWING_PERCENT unless the operator chose a value with
 * NODE_OPTIONS or a node flag. V8 reads this flag at every full collection,
 * so setting it once the process runs takes effect for the heap it grows.
 */
export function applyHeapSizing(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  const chosen = (text: string) => /--heap[-_]growing[-_]percent\b/.test(text);
  if (execArgv.some(chosen) || chosen(nodeOptions)) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
