import { startOfUtcMonth } from '../../ledger/usage-windows';

export { startOfUtcMonth };

/** Budgets are per calendar month in UTC, like the ledger's usage windows. */
export function startOfNextUtcMonth(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** The month utcMonthKey named last: every call of a month asks for the same key. */
let lastMonth = { start: 0, end: 0, key: '' };

/** `2026-03`: names the month in cache keys. */
export function utcMonthKey(now: number): string {
  if (now >= lastMonth.start && now < lastMonth.end) return lastMonth.key;
  const start = startOfUtcMonth(now);
  lastMonth = {
    start,
    end: startOfNextUtcMonth(now),
    key: new Date(start).toISOString().slice(0, 7),
  };
  return lastMonth.key;
}

/** Whole seconds until the budget resets (at least 1, so a client never retries at once). */
export function secondsUntilNextUtcMonth(now: number): number {
  return Math.max(1, Math.ceil((startOfNextUtcMonth(now) - now) / 1000));
}
