import { Kysely, sql } from 'kysely';
import { LedgerConnection } from './ledger-connection';

/**
 * Adds nullable text columns to `ledger` (and SQLite's `ledger_inbox`, whose
 * rows become ledger rows), so existing rows need no rewrite.
 */
export async function addNullableTextColumns(
  db: Kysely<unknown>,
  driver: LedgerConnection['driver'],
  columns: readonly string[],
): Promise<void> {
  if (driver === 'postgres') {
    for (const column of columns) {
      await sql`alter table ledger add column if not exists ${sql.ref(column)} text`.execute(db);
    }
    return;
  }
  // SQLite has no ADD COLUMN IF NOT EXISTS, and an older gateway, which did not migrate in one
  // transaction, may have added a column without recording its migration.
  for (const table of ['ledger', 'ledger_inbox']) {
    const { rows } = await sql<{
      name: string;
    }>`select name from pragma_table_info(${table})`.execute(db);
    if (rows.length === 0) continue;
    for (const column of columns) {
      if (rows.some((existing) => existing.name === column)) continue;
      await sql`alter table ${sql.table(table)} add column ${sql.ref(column)} text`.execute(db);
    }
  }
}
