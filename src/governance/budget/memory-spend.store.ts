import { SpendStore } from './spend.store';

interface Entry {
  value: number;
  expiresAt: number;
}

/** The in-process spend cache (state.driver memory): one replica, nothing to share. */
export class MemorySpendStore implements SpendStore {
  /**
   * By month, then client: a call looks up the strings it holds (their hashes
   * are cached) instead of building a key string and hashing it anew.
   */
  private readonly entries = new Map<string, Map<string, Entry>>();

  constructor(private readonly clock: () => number = Date.now) {}

  get(clientId: string, month: string): Promise<number | undefined> {
    return Promise.resolve(this.getNow(clientId, month));
  }

  getNow(clientId: string, month: string): number | undefined {
    return this.live(clientId, month)?.value;
  }

  seed(clientId: string, month: string, value: number, ttlMs: number): Promise<number> {
    const existing = this.live(clientId, month);
    if (existing) return Promise.resolve(existing.value);
    this.sweep();
    let clients = this.entries.get(month);
    if (!clients) {
      clients = new Map();
      this.entries.set(month, clients);
    }
    clients.set(clientId, { value, expiresAt: this.clock() + ttlMs });
    return Promise.resolve(value);
  }

  add(clientId: string, month: string, amount: number): Promise<number | undefined> {
    const entry = this.live(clientId, month);
    if (entry) entry.value += amount;
    return Promise.resolve(entry?.value);
  }

  private live(clientId: string, month: string): Entry | undefined {
    const clients = this.entries.get(month);
    const entry = clients?.get(clientId);
    if (entry && entry.expiresAt <= this.clock()) {
      clients?.delete(clientId);
      return undefined;
    }
    return entry;
  }

  /** Expired entries (old months included) go when new ones arrive, so the maps stay small. */
  private sweep(): void {
    const now = this.clock();
    for (const [month, clients] of this.entries) {
      for (const [clientId, entry] of clients) if (entry.expiresAt <= now) clients.delete(clientId);
      if (clients.size === 0) this.entries.delete(month);
    }
  }
}
