import { SqliteDatabase } from '../../src/ledger/sqlite-driver';
import { Client } from 'pg';
import { currentMonthSpan, LEDGER_COLUMNS, ledgerRow, POSTGRES_ROW_SELECT } from './ledger-rows';
import { msSince } from './stats';

/** Fills a migrated SQLite ledger: one transaction, one prepared statement. */
export function fillSqliteLedger(path: string, rows: number): number {
  const start = process.hrtime.bigint();
  const db = new SqliteDatabase(path);
  try {
    db.pragma('journal_mode = WAL');
    const insert = db.prepare(
      `insert into ledger (${LEDGER_COLUMNS.join(', ')}) values (${LEDGER_COLUMNS.map(() => '?').join(', ')})`,
    );
    const span = currentMonthSpan();
    db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(ledgerRow(i, rows, span));
    })();
    db.exec('analyze');
  } finally {
    db.close();
  }
  return msSince(start);
}

/** Fills a migrated PostgreSQL ledger in `schema` with one INSERT ... SELECT over generate_series. */
export async function fillPostgresLedger(
  client: Client,
  schema: string,
  rows: number,
): Promise<number> {
  const start = process.hrtime.bigint();
  const span = currentMonthSpan();
  await client.query(
    `insert into ${schema}.ledger (${LEDGER_COLUMNS.join(', ')}) ${POSTGRES_ROW_SELECT}`,
    [span.from, span.to, rows],
  );
  await client.query(`analyze ${schema}.ledger`);
  return msSince(start);
}
