/**
 * Calls `onIdle` once a connection has had no call in flight for `idleMs`
 * (a record's idle_timeout_seconds); 0 turns it off. The timer is unref'd so
 * it never keeps the gateway alive.
 */
export class IdleReclaimTimer {
  private inFlight = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {}

  busy(): void {
    this.inFlight++;
    this.stop();
  }

  free(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.arm();
  }

  /** Starts the idle clock if nothing is in flight (after a connect, after the last call). */
  arm(): void {
    if (this.idleMs <= 0 || this.inFlight > 0) return;
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.inFlight === 0) this.onIdle();
    }, this.idleMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
