import { McpRequestContext } from '../json-rpc/mcp-request-context';

/**
 * notifications/progress for one call. The spec requires progress values to
 * increase, so a report that does not is dropped (the first may be 0), and
 * heartbeats step by a fraction that stays below the handler's next whole step.
 */
export class ProgressReporter {
  /** The last value sent; undefined before the first report. */
  private last?: number;
  private total?: number;
  private heartbeats = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly rpc: McpRequestContext,
    private readonly token: string | number | undefined,
  ) {}

  get enabled(): boolean {
    return this.token !== undefined;
  }

  report(done: number, total?: number, message?: string): void {
    if (this.token === undefined || !Number.isFinite(done) || done < 0) return;
    if (this.last !== undefined && done <= this.last) return;
    this.last = done;
    if (total !== undefined) this.total = total;
    this.send(message);
  }

  /** Keeps long calls visibly alive (seed: progress over the stream for calls past the interval). */
  startHeartbeat(intervalMs: number, startedAt: number): void {
    if (this.token === undefined || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      this.heartbeats++;
      this.last = (this.last ?? 0) + 1e-6;
      this.send(`still running after ${Math.round((Date.now() - startedAt) / 1000)} s`);
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private send(message?: string): void {
    const params: Record<string, unknown> = { progressToken: this.token, progress: this.last ?? 0 };
    if (this.total !== undefined) params.total = this.total;
    if (message !== undefined) params.message = message;
    this.rpc.notify('notifications/progress', params);
  }
}

export function progressTokenOf(rpc: McpRequestContext): string | number | undefined {
  const token = rpc.meta.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
