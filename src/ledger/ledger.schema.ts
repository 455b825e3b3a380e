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
}

export interface LedgerDatabase {
  ledger: LedgerTable;
}

export const LEDGER_TABLE = 'ledger';
