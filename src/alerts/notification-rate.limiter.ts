const MINUTE_MS = 60_000;

/**
 * At most `perMinute` notifications in any sliding minute, across all
 * alerts, so a flapping condition cannot flood a receiver. Holds one
 * timestamp per notification let through in the last minute, so at most
 * `perMinute` of them.
 */
export class NotificationRateLimiter {
  private readonly taken: number[] = [];

  constructor(private readonly perMinute: number) {}

  /** Takes one slot at `now` (epoch ms) if the last minute has one left. */
  tryTake(now: number): boolean {
    while (this.taken.length > 0 && this.taken[0] <= now - MINUTE_MS) this.taken.shift();
    if (this.taken.length >= this.perMinute) return false;
    this.taken.push(now);
    return true;
  }
}
