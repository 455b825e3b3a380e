import { claimFits } from './budget.math';
import { BudgetClaim, ClaimOutcome, SpendSeed, SpendStore } from './spend.store';

interface Held {
  amount: number;
  lapsesAt: number;
}

interface Entry {
  spent: number;
  reserved: number;
  claims: Map<string, Held>;
  /** When the first held claim lapses: until then no claim needs looking at. */
  nextLapse: number;
  expiresAt: number;
}

/**
 * The in-process spend and reservations (state.driver memory): one replica,
 * and each method runs to its end without yielding, which makes a check and
 * its reservation one step.
 */
export class MemorySpendStore implements SpendStore {
  /** By month, then client. */
  private readonly entries = new Map<string, Map<string, Entry>>();

  constructor(private readonly clock: () => number = Date.now) {}

  settle(clientId: string, month: string, claimId: string | undefined, cost: number) {
    return Promise.resolve(this.settleInPlace(clientId, month, claimId, cost));
  }

  reserve(clientId: string, month: string, claim: BudgetClaim, seed?: SpendSeed): ClaimOutcome {
    const now = this.clock();
    let entry = this.live(clientId, month, now);
    if (!entry) {
      if (!seed) return { status: 'cold' };
      entry = this.create(clientId, month, seed, now);
    }
    const { spent, reserved } = entry;
    if (!claimFits(spent, reserved, claim)) return { status: 'refused', spent, reserved };
    if (claim.amount === 0) return { status: 'reserved', spent, reserved };
    entry.claims.set(claim.id, { amount: claim.amount, lapsesAt: now + claim.ttlMs });
    entry.reserved += claim.amount;
    entry.nextLapse = Math.min(entry.nextLapse, now + claim.ttlMs);
    // The spend outlives every claim on it, so a settling call always finds it.
    entry.expiresAt = Math.max(entry.expiresAt, now + claim.ttlMs);
    return { status: 'reserved', spent, reserved };
  }

  private settleInPlace(
    clientId: string,
    month: string,
    claimId: string | undefined,
    cost: number,
  ): number | undefined {
    const entry = this.live(clientId, month, this.clock());
    if (!entry) return undefined;
    const held = claimId === undefined ? undefined : entry.claims.get(claimId);
    if (held && claimId !== undefined) {
      entry.claims.delete(claimId);
      entry.reserved -= held.amount;
    }
    // Sums of fractions drift; with nothing held the total is exactly 0.
    if (entry.claims.size === 0) entry.reserved = 0;
    entry.spent += held ? Math.min(cost, held.amount) : cost;
    return entry.spent;
  }

  get(clientId: string, month: string) {
    const entry = this.live(clientId, month, this.clock());
    return Promise.resolve(entry && { spent: entry.spent, reserved: entry.reserved });
  }

  private create(clientId: string, month: string, seed: SpendSeed, now: number): Entry {
    this.sweep(now);
    let clients = this.entries.get(month);
    if (!clients) {
      clients = new Map();
      this.entries.set(month, clients);
    }
    const entry: Entry = {
      spent: seed.value,
      reserved: 0,
      claims: new Map(),
      nextLapse: Infinity,
      expiresAt: now + seed.ttlMs,
    };
    clients.set(clientId, entry);
    return entry;
  }

  /** The entry if it has not expired, with its lapsed claims dropped. */
  private live(clientId: string, month: string, now: number): Entry | undefined {
    const clients = this.entries.get(month);
    const entry = clients?.get(clientId);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      clients?.delete(clientId);
      return undefined;
    }
    if (entry.nextLapse <= now) {
      entry.nextLapse = Infinity;
      for (const [id, held] of entry.claims) {
        if (held.lapsesAt > now) {
          entry.nextLapse = Math.min(entry.nextLapse, held.lapsesAt);
          continue;
        }
        entry.claims.delete(id);
        entry.reserved -= held.amount;
      }
      if (entry.claims.size === 0) entry.reserved = 0;
    }
    return entry;
  }

  /** Expired entries (old months included) go when new ones arrive, so the maps stay small. */
  private sweep(now: number): void {
    for (const [month, clients] of this.entries) {
      for (const [clientId, entry] of clients) if (entry.expiresAt <= now) clients.delete(clientId);
      if (clients.size === 0) this.entries.delete(month);
    }
  }
}
