import { Kysely, Migrator, sql } from 'kysely';
import { LedgerConnection } from '../ledger-connection';
import { LedgerRow } from '../ledger-row';
import { toColumns } from '../ledger-row.columns';
import { LEDGER_MAX_BATCH_ROWS } from '../ledger.constants';
import { createLedgerDialect } from '../ledger.dialect';
import { ledgerMigrations } from '../ledger.migrations';
import { LedgerDatabase } from '../ledger.schema';

/**
 * Leaves the database as the first release did (migration 0001 only, no
 * usage summary) holding `rows`, so that a test can open the current store
 * over it and watch migration 0002 fill the summary.
 */
export async function seedLegacyLedger(
  connection: LedgerConnection,
  rows: readonly LedgerRow[],
): Promise<void> {
  const db = new Kysely<LedgerDatabase>({ dialect: createLedgerDialect(connection) });
  try {
    const first = ledgerMigrations(connection.driver)['0001_create_ledger'];
    const schema =
      connection.driver === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
            .schema
        : undefined;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ '0001_create_ledger': first }) },
      migrationTableSchema: schema,
    });
    const { error } = await migrator.migrateToLatest();
    if (error !== undefined) throw new Error('legacy ledger migration failed', { cause: error });
    for (let at = 0; at < rows.length; at += LEDGER_MAX_BATCH_ROWS) {
      const chunk = rows.slice(at, at + LEDGER_MAX_BATCH_ROWS);
      // The first release had none of the columns migrations 0005 to 0008 added.
      const columns = chunk.map(toColumns);
      for (const row of columns) {
        delete row.cost_flag;
        delete row.error_message;
        delete row.result_sha256;
        delete row.upstream_server;
        delete row.upstream_tool;
        delete row.subject;
        delete row.token_id;
      }
      await db.insertInto('ledger').values(columns).execute();
    }
  } finally {
    await db.destroy();
  }
}
