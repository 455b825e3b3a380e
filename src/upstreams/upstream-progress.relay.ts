import type { Progress } from '@modelcontextprotocol/sdk/types.js';

/**
 * One call's upstream progress on its way to the client, at most one report
 * per `gapMs`: a report inside the gap replaces the one waiting, so a burst
 * of any size costs the client one notification per gap, and `flush()` sends
 * the last value when the call answers.
 */
export class UpstreamProgressRelay {
  private pending?: Progress;
  private lastSent = -Infinity;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly sink: (progress: Progress) => void,
    private readonly gapMs: number,
  ) {}

  readonly report = (progress: Progress): void => {
    this.pending = progress;
    if (this.timer) return;
    const wait = this.lastSent + this.gapMs - performance.now();
    if (wait <= 0) {
      this.send();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, wait);
    this.timer.unref();
  };

  /** Sends the report still waiting, if any, at once: the client's last value is the upstream's. */
  flush(): void {
    this.stop();
    this.send();
  }

  /** Drops the report still waiting (a failed or cancelled call). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private send(): void {
    const progress = this.pending;
    if (progress === undefined) return;
    this.pending = undefined;
    this.lastSent = performance.now();
    this.sink(progress);
  }
}
