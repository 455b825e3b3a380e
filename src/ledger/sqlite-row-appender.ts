import type Database from 'better-sqlite3';
import { LedgerRow } from './ledger-row';
import { toColumns } from './ledger-row.columns';
import { LedgerTable } from './ledger.schema';

type InsertedColumn = Exclude<keyof LedgerTable, 'id'>;

/** Every column an append writes (all but the generated id). */
const INSERTED_COLUMNS: readonly InsertedColumn[] = [
  'time',
  'request_id',
  'trace_id',
  'client_id',
  'session_id',
  'transport',
  'method',
  'target',
  'arguments',
  'outcome',
  'error_code',
  'denial_reason',
  'duration_ms',
  'cost',
  'result_bytes',
];

/**
 * The SQLite ledger's write path, beside Kysely: one INSERT prepared once and
 * run per row, a batch inside one transaction. Through Kysely every batch
 * size compiled its own multi-row INSERT and waited on the driver's
 * connection mutex, which cost about three times the commit itself on the
 * call path. better-sqlite3 runs synchronously, so a batch commits in one step
 * with nothing else in between, and the summary triggers fire inside it.
 */
export class SqliteRowAppender {
  private readonly insert: Database.Statement;
  private readonly insertMany: (rows: readonly LedgerRow[]) => void;

  /** The ledger table must exist (migrations have run). */
  constructor(db: Database.Database) {
    const names = INSERTED_COLUMNS.join(', ');
    const values = INSERTED_COLUMNS.map((column) => `@${column}`).join(', ');
    this.insert = db.prepare(`insert into ledger (${names}) values (${values})`);
    this.insertMany = db.transaction((rows: readonly LedgerRow[]) => {
      for (const row of rows) this.insert.run(toColumns(row));
    });
  }

  append(rows: readonly LedgerRow[]): void {
    // A lone row commits in the INSERT's own implicit transaction (no BEGIN/COMMIT round).
    if (rows.length === 1) this.insert.run(toColumns(rows[0]));
    else if (rows.length > 1) this.insertMany(rows);
  }
}
