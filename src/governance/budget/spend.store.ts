/** Token of the monthly spend and reservation store chosen by `state.driver`. */
export const SPEND_STORE = Symbol('SPEND_STORE');

/** One call's claim on a client's monthly budget, made before the call runs. */
export interface BudgetClaim {
  /** Unique across replicas; settle() names the claim by it. A claim of 0 is checked, not held. */
  id: string;
  /** The most the call may be charged, held until the call settles. */
  amount: number;
  /** The client's monthly budget. */
  budget: number;
  /** Refuse even a free claim once nothing is left: the call may still report a cost. */
  refuseWhenSpent: boolean;
  /** The claim lapses after this long, so a call that never settles (a dead replica) frees it. */
  ttlMs: number;
}

/** The ledger's spend for the month, for a store that has none cached yet. */
export interface SpendSeed {
  value: number;
  /** How long the seeded spend is trusted before it is read from the ledger again. */
  ttlMs: number;
}

/** What a store answered to a claim; `spent` and `reserved` are as they stood before it. */
export type ClaimOutcome =
  | { status: 'reserved' | 'refused'; spent: number; reserved: number }
  /** No spend cached for this client and month: read the ledger and claim again with a seed. */
  | { status: 'cold' };

/**
 * Each client's spend in one UTC month (`month` is `YYYY-MM`) and what its
 * calls in flight may still be charged. The ledger is the truth for the
 * spend; the store spares a SUM over the month per call and makes the budget
 * check and the reservation one atomic step, so concurrent calls cannot all
 * pass against the same snapshot, and a settle never adds more than its
 * claim held, so spend + reserved never exceeds the budget.
 */
export interface SpendStore {
  /**
   * Reserves the claim when spent + reserved + amount fits the budget (and,
   * with refuseWhenSpent, something is left), in one atomic step. With a
   * seed, a missing spend is first set to it (a cached one wins: the first
   * seed is the only one); without, a missing spend answers `cold`. The
   * in-process store answers at once, Redis with a promise.
   */
  reserve(
    clientId: string,
    month: string,
    claim: BudgetClaim,
    seed?: SpendSeed,
  ): ClaimOutcome | Promise<ClaimOutcome>;
  /**
   * Replaces a call's claim (if any, and if it has not lapsed) by what the
   * call cost, never more than the claim held (0 releases it), and resolves
   * with the spend after it; without a cached spend nothing is added
   * (undefined): the next seed reads the ledger, which holds the call.
   */
  settle(
    clientId: string,
    month: string,
    claimId: string | undefined,
    cost: number,
  ): Promise<number | undefined>;
  /** The cached spend and reserved total, or undefined when none is cached. */
  get(clientId: string, month: string): Promise<{ spent: number; reserved: number } | undefined>;
}
