/** Token of the monthly spend cache chosen by `state.driver`. */
export const SPEND_STORE = Symbol('SPEND_STORE');

/**
 * A cache of each client's spend in one UTC month (`month` is `YYYY-MM`).
 * The ledger is the truth; the cache spares a SUM over the month per call.
 */
export interface SpendStore {
  /** The cached spend, or undefined when there is none (expired, never read). */
  get(clientId: string, month: string): Promise<number | undefined>;
  /** get(), answered synchronously, by a store that can (the in-process one). */
  getNow?(clientId: string, month: string): number | undefined;
  /** Caches `value` (read from the ledger) unless a value is cached already; resolves with the cached one. */
  seed(clientId: string, month: string, value: number, ttlMs: number): Promise<number>;
  /**
   * Adds a completed call's cost to a cached spend and resolves with the sum;
   * without a cached spend it does nothing (undefined): the next read seeds
   * from the ledger, which holds that call.
   */
  add(clientId: string, month: string, amount: number): Promise<number | undefined>;
}
