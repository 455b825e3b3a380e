/**
 * Calendar windows (UTC) that usage and budgets are counted in. The monthly
 * budget resets on the first of the month, 00:00 UTC.
 */
export interface UsageWindows {
  minute: number;
  day: number;
  month: number;
}

const MINUTE_MS = 60_000;

export function startOfUtcMonth(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

export function usageWindows(now: number): UsageWindows {
  const date = new Date(now);
  return {
    minute: Math.floor(now / MINUTE_MS) * MINUTE_MS,
    day: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()),
    month: startOfUtcMonth(now),
  };
}
