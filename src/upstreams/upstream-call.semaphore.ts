/** Gives back the slot a call held. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant: (release: ReleaseSlot) => void;
}

/**
 * Counts the calls in flight to one upstream (`budgets.max_concurrency`).
 * Waiters are served in arrival order; one that waits too long gets `undefined`
 * so that the caller can refuse the call instead of queueing without end.
 */
export class UpstreamCallSemaphore {
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];

  constructor(readonly max: number) {}

  get active(): number {
    return this.inFlight;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** A slot, or `undefined` after `timeoutMs`; rejects with the signal's reason when it aborts first. */
  acquire(timeoutMs: number, signal?: AbortSignal): Promise<ReleaseSlot | undefined> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.inFlight < this.max) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: (release) => {
          settle();
          resolve(release);
        },
      };
      const onAbort = (): void => {
        settle();
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        settle();
        resolve(undefined);
      }, timeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private take(): ReleaseSlot {
    this.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.waiters[0]?.grant(this.take());
    };
  }
}
