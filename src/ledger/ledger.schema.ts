import { ColumnType, Generated } from 'kysely';

/**
 * The `ledger` table as Kysely sees it. PostgreSQL returns bigint columns as
 * strings, hence `number | string` on select; rows are normalised by
 * ledger-row.columns.ts.
 */
export interface LedgerTable {
  id: Generated<number | string>;
  time: ColumnType<number | string, number, number>;
  request_id: string;
  trace_id: string;
  client_id: string;
  session_id: string;
  transport: string;
  method: string;
  target: string;
  arguments: string | null;
  outcome: string;
  error_code: number | null;
  denial_reason: string | null;
  duration_ms: number;
  cost: number;
  result_bytes: number;
  /** `capped` or `invalid_report` when the cost is not what the tool reported (migration 0005). */
  cost_flag: string | null;
  /** Redacted, bounded error message (migration 0006). */
  error_message: string | null;
  /** SHA-256 (hex) of the result's JSON bytes (migration 0006). */
  result_sha256: string | null;
  /** The upstream server of a federated tool call, null for local tools (migration 0007). */
  upstream_server: string | null;
  /** The upstream's own name of that tool, without the namespace (migration 0007). */
  upstream_tool: string | null;
  /** The OAuth access token's `sub`, null for other callers (migration 0008). */
  subject: string | null;
  /** The OAuth access token's `jti`, null without one; never the token itself (migration 0008). */
  token_id: string | null;
}

/**
 * Calls and spend per client, UTC month, method, target, outcome and denial
 * reason: what `usage()` reads instead of the rows. Kept by triggers on
 * `ledger` (see ledger-usage.migration.ts), so it always matches the rows.
 */
export interface LedgerUsageTable {
  /** Epoch ms of the first instant of the UTC month. */
  month: ColumnType<number | string, number, never>;
  client_id: string;
  method: string;
  target: string;
  outcome: string;
  /** The denial reason (`unknown` when none was given) of denied calls, '' for the others. */
  reason: string;
  calls: ColumnType<number | string, number, number>;
  spend: number;
}

/** Calls per client and UTC day (for `callsToday`), kept by the same triggers. */
export interface LedgerDailyCallsTable {
  /** Epoch ms of UTC midnight. */
  day: ColumnType<number | string, number, never>;
  client_id: string;
  calls: ColumnType<number | string, number, number>;
}

export interface LedgerDatabase {
  ledger: LedgerTable;
  ledger_usage: LedgerUsageTable;
  ledger_daily_calls: LedgerDailyCallsTable;
}

export const LEDGER_TABLE = 'ledger';
