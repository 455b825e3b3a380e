import { GatewayError } from '../errors/gateway.error';
import { LedgerRow } from './ledger-row';

/**
 * How a SQLite store's rows reach `ledger`: committed first where a commit
 * is cheap (the journal for a database file, the `ledger_inbox` table for an
 * in-memory one), moved into `ledger` and its indexes and summaries after.
 */
export interface SqliteRowPath {
  /** Commits the rows: once this returns, they survive the process being killed. */
  append(rows: readonly LedgerRow[]): void;
  /** Starts one move of this store's own rows; true while more are waiting for another. */
  moveSome(): boolean;
  /** Moves every row committed so far, by this process or any other, into `ledger`. */
  moveAll(): number | Promise<number>;
  /** Set for good once a file the rows go to was removed or replaced. */
  readonly fault?: GatewayError;
  /** Checks the files now; throws while the path cannot take rows. */
  verify(): void;
  /** Moves what is left and lets go of what the path holds (files, locks, threads). */
  close(): void | Promise<void>;
}
