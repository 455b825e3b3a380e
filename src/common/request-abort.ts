/**
 * The cancellation of one request (notifications/cancelled, a tool's
 * deadline, the session ending), without an AbortController per call:
 * Node's AbortSignal is an EventTarget, costly to make and to listen to
 * (docs/performance.md). The signal is made only when something asks for it
 * (a handler handing it to fetch or a timer); the gateway itself waits with
 * race().
 */
export class RequestAbort {
  private controller?: AbortController;
  private waiters?: Array<(reason: Error) => void>;
  private abortReason?: Error;

  get aborted(): boolean {
    return this.abortReason !== undefined;
  }

  /** What abort() was given; undefined until then. */
  get reason(): Error | undefined {
    return this.abortReason;
  }

  /** A standard AbortSignal that follows this request (made on first use). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** The first call wins; later ones change nothing. */
  abort(reason: Error): void {
    if (this.abortReason) return;
    this.abortReason = reason;
    const waiters = this.waiters;
    this.waiters = undefined;
    for (const reject of waiters ?? []) reject(reason);
    this.controller?.abort(reason);
  }

  /**
   * Settles with `work`, or rejects with the abort reason as soon as the
   * request is aborted: the caller gets its answer on time even if the work
   * ignores the abort.
   */
  race<T>(work: Promise<T>): Promise<T> {
    const reason = this.abortReason;
    if (reason) {
      // The work still runs to its end; its outcome is not wanted, its failure is not unhandled.
      work.catch(() => undefined);
      return Promise.reject(reason);
    }
    return new Promise<T>((resolve, reject) => {
      (this.waiters ??= []).push(reject);
      work.then(resolve, reject);
    });
  }
}
