/**
 * Runs `action` at most once per `gapMs`: a call inside the gap is folded into
 * one trailing run at the gap's end, so a burst of N calls costs at most two runs.
 */
export class TrailingThrottle {
  private lastRun = -Infinity;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly gapMs: number,
    private readonly action: () => void,
  ) {}

  call(): void {
    if (this.timer) return;
    const wait = this.lastRun + this.gapMs - Date.now();
    if (wait <= 0) {
      this.run();
      return;
    }
    this.timer = setTimeout(() => this.run(), wait);
    this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.timer = undefined;
    this.lastRun = Date.now();
    this.action();
  }
}
