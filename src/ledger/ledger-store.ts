import { GatewayError } from '../errors/gateway.error';
import { LedgerOutcome, LedgerRow, StoredLedgerRow } from './ledger-row';

/** Token of the LedgerStore implementation chosen by `ledger.driver`. */
export const LEDGER_STORE = Symbol('LEDGER_STORE');

export interface LedgerQuery {
  clientId?: string;
  target?: string;
  outcome?: LedgerOutcome;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
  /** Rows with id below this (newest first paging). */
  beforeId?: number;
  limit: number;
}

export interface ClientUsage {
  clientId: string;
  callsThisMinute: number;
  callsToday: number;
  callsThisMonth: number;
  spendThisMonth: number;
  denialsByReason: Record<string, number>;
  topTools: Array<{ target: string; calls: number }>;
}

/**
 * The durable call ledger. SQLite (embedded) and PostgreSQL (scale-out)
 * implement it with one query layer and pass one contract test suite.
 */
export interface LedgerStore {
  /** Runs migrations; called once at boot. */
  init(): Promise<void>;
  /** Commits the rows in one transaction; resolves only once they are durable. */
  append(rows: readonly LedgerRow[]): Promise<void>;
  /** Newest first. */
  query(query: LedgerQuery): Promise<StoredLedgerRow[]>;
  /** Sum of cost of the client's rows since `from` (epoch ms): the monthly spend. */
  spendSince(clientId: string, from: number): Promise<number>;
  /** Usage of one client, or of every client that has rows this month. */
  usage(now: number, clientId?: string): Promise<ClientUsage[]>;
  /** Deletes rows older than `before` (epoch ms); returns how many. */
  prune(before: number): Promise<number>;
  /** Why no row can be committed until a restart (a file removed or replaced), or undefined. */
  fault(): GatewayError | undefined;
  /** A cheap round trip for readiness. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
