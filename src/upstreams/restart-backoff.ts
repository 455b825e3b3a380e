/** How a crashed stdio child is restarted (the `upstreams.restart_*` config keys). */
export interface RestartPolicy {
  /** First backoff ceiling; each further attempt doubles it. */
  baseMs: number;
  /** The ceiling never grows past this. */
  maxMs: number;
  /** Failures (crashes and failed starts) within `windowMs` before the server is marked down. */
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  baseMs: 500,
  maxMs: 30_000,
  maxFailures: 5,
  windowMs: 60_000,
};

/** What to do after a failure: wait `delayMs` and try again, or give up (`down`). */
export type RestartDecision = { down: false; delayMs: number; attempt: number } | { down: true };

/**
 * Exponential backoff with full jitter (a delay drawn from 0 to
 * min(max, base * 2^attempt)), so children that crashed together do not
 * restart together; and a failure budget per sliding window, so a child that
 * crashes right after every start is given up on instead of looping forever.
 */
export class RestartBackoff {
  private attempt = 0;
  private failures: number[] = [];

  constructor(
    private readonly policy: RestartPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  /** Attempts since the last successful start. */
  get attempts(): number {
    return this.attempt;
  }

  recordFailure(now: number): RestartDecision {
    this.failures = this.failures.filter((at) => now - at < this.policy.windowMs);
    this.failures.push(now);
    if (this.failures.length >= this.policy.maxFailures) return { down: true };
    const ceiling = Math.min(this.policy.maxMs, this.policy.baseMs * 2 ** this.attempt);
    this.attempt++;
    return { down: false, delayMs: Math.floor(this.random() * ceiling), attempt: this.attempt };
  }

  /** A start that worked resets the backoff; the window keeps counting crashes. */
  recordSuccess(): void {
    this.attempt = 0;
  }

  /** When a down server may be tried again: once its last failure left the window. */
  retryAllowedAt(): number {
    const last = this.failures[this.failures.length - 1] ?? 0;
    return last + this.policy.windowMs;
  }
}
