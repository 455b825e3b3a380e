import { SpendStore } from './spend.store';

interface Entry {
  value: number;
  expiresAt: number;
}

/** The in-process spend cache (state.driver memory): one replica, nothing to share. */
export class MemorySpendStore implements SpendStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: () => number = Date.now) {}

  get(clientId: string, month: string): Promise<number | undefined> {
    return Promise.resolve(this.getNow(clientId, month));
  }

  getNow(clientId: string, month: string): number | undefined {
    return this.live(key(clientId, month))?.value;
  }

  seed(clientId: string, month: string, value: number, ttlMs: number): Promise<number> {
    const id = key(clientId, month);
    const existing = this.live(id);
    if (existing) return Promise.resolve(existing.value);
    this.sweep();
    this.entries.set(id, { value, expiresAt: this.clock() + ttlMs });
    return Promise.resolve(value);
  }

  add(clientId: string, month: string, amount: number): Promise<number | undefined> {
    const entry = this.live(key(clientId, month));
    if (entry) entry.value += amount;
    return Promise.resolve(entry?.value);
  }

  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= this.clock()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }

  /** Expired entries (old months included) go when new ones arrive, so the map stays small. */
  private sweep(): void {
    const now = this.clock();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}

function key(clientId: string, month: string): string {
  return `${month}\u0000${clientId}`;
}
