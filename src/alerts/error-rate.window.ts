/** Requests and failed requests counted since the gateway started. */
export interface RequestTotals {
  requests: number;
  failed: number;
}

interface Reading extends RequestTotals {
  at: number;
}

/**
 * Requests and failures over a sliding window, from cumulative counters read
 * at each evaluation (nothing is counted on the request path): the latest
 * total minus the newest reading at least a window old. Younger than a
 * window, it counts from the first reading (the counters' zero at start).
 * Readings are kept at least window / maxReadings apart, so at most about
 * maxReadings of them.
 */
export class ErrorRateWindow {
  private readonly readings: Reading[] = [];
  private readonly minGapMs: number;

  constructor(
    private readonly windowMs: number,
    start: Reading,
    maxReadings: number,
  ) {
    this.readings.push(start);
    this.minGapMs = windowMs / maxReadings;
  }

  /** Records the totals read at `now` and returns what the window ending now holds. */
  record(now: number, totals: RequestTotals): RequestTotals {
    const boundary = now - this.windowMs;
    // Keep one reading at or before the boundary: it is the baseline.
    while (this.readings.length > 1 && this.readings[1].at <= boundary) this.readings.shift();
    const base = this.readings[0];
    const last = this.readings[this.readings.length - 1];
    if (now - last.at >= this.minGapMs) this.readings.push({ at: now, ...totals });
    return {
      requests: Math.max(0, totals.requests - base.requests),
      failed: Math.max(0, totals.failed - base.failed),
    };
  }
}
