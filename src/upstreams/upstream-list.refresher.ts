/**
 * Re-lists upstream servers one at a time per server: a request while a
 * listing runs marks one more listing to follow (a flood of list_changed
 * notifications costs at most two listings), and each server has at most one
 * expiry timer, so the work and the timers stay bounded by the server count.
 */
export class UpstreamListRefresher {
  private readonly running = new Map<string, Promise<void>>();
  private readonly pending = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  /** `list` lists one server and says whether it worked (true) or failed. */
  constructor(
    private readonly list: (serverId: string) => Promise<boolean>,
    private readonly ttlMs: { ok: number; failed: number },
  ) {}

  /** Lists the server now, or once more after the listing in progress; resolves when that listing is over. */
  request(serverId: string): Promise<void> {
    const current = this.running.get(serverId);
    if (!current) return this.start(serverId);
    this.pending.add(serverId);
    return current.then(() => this.running.get(serverId));
  }

  /** Sets the server's cache entry to expire after the TTL for this outcome, replacing any earlier timer. */
  expireAfter(serverId: string, ok: boolean): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(serverId));
    const timer = setTimeout(
      () => {
        this.timers.delete(serverId);
        void this.request(serverId);
      },
      ok ? this.ttlMs.ok : this.ttlMs.failed,
    );
    // An expiry timer must not keep the process alive on its own.
    timer.unref();
    this.timers.set(serverId, timer);
  }

  /** Drops the server's timer (it left the registry). */
  forget(serverId: string): void {
    clearTimeout(this.timers.get(serverId));
    this.timers.delete(serverId);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
  }

  private start(serverId: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const run = (async () => {
      const ok = await this.list(serverId).catch(() => false);
      this.expireAfter(serverId, ok);
    })().finally(() => {
      this.running.delete(serverId);
      if (this.pending.delete(serverId)) void this.start(serverId);
    });
    this.running.set(serverId, run);
    return run;
  }
}
