import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The time limits of a whole upstream task, as a plain call has them: no
 * more than `idleMs` without a sign of life (progress, a status change), no
 * more than `totalMs` in all, and the caller's own cancellation. Its signal
 * aborts with the caller's reason, or with a RequestTimeout McpError that the
 * connection maps to mcp_timeout like a plain call's timeout.
 */
export class UpstreamTaskDeadline {
  private readonly controller = new AbortController();
  private readonly totalTimer: NodeJS.Timeout;
  private idleTimer?: NodeJS.Timeout;
  private readonly unlink: () => void;

  constructor(
    private readonly idleMs: number,
    totalMs: number,
    caller?: AbortSignal,
  ) {
    this.totalTimer = setTimeout(() => this.expire(`ran past ${totalMs} ms`, totalMs), totalMs);
    this.touch();
    const follow = () => this.end(caller?.reason);
    this.unlink = () => caller?.removeEventListener('abort', follow);
    if (caller?.aborted) follow();
    else caller?.addEventListener('abort', follow, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The task showed life: the idle limit starts again. */
  touch(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(
      () => this.expire(`showed no progress for ${this.idleMs} ms`, this.idleMs),
      this.idleMs,
    );
  }

  /** Stops the timers and lets go of the caller's signal; the deadline no longer fires. */
  dispose(): void {
    clearTimeout(this.totalTimer);
    clearTimeout(this.idleTimer);
    this.unlink();
  }

  private expire(why: string, timeout: number): void {
    this.end(new McpError(McpErrorCode.RequestTimeout, `Upstream task ${why}`, { timeout }));
  }

  private end(reason: unknown): void {
    this.dispose();
    this.controller.abort(reason);
  }
}
