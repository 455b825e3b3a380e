/**
 * The wait before retry number `attempt` (1 for the first retry): a ceiling
 * of base * 2^(attempt - 1), capped at max, of which a random half is taken
 * ("equal jitter"), so receivers that failed together are not retried in step
 * and a retry never comes at once.
 */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
