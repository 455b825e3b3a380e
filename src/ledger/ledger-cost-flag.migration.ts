import { Kysely, Migration, sql } from 'kysely';
import { LedgerConnection } from './ledger-connection';

/**
 * 0005: `cost_flag` on `ledger` (and SQLite's `ledger_inbox`): why a row's
 * cost is not what the tool reported (`capped` at max_cost_per_call, or
 * `invalid_report`). Nullable, so existing rows need no rewrite.
 */
export function addCostFlag(driver: LedgerConnection['driver']): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (driver === 'postgres') {
        await sql`alter table ledger add column if not exists cost_flag text`.execute(db);
        return;
      }
      // SQLite has no ADD COLUMN IF NOT EXISTS, and two processes may migrate one file at once.
      for (const table of ['ledger', 'ledger_inbox']) {
        const { rows } = await sql<{
          name: string;
        }>`select name from pragma_table_info(${table})`.execute(db);
        if (rows.length === 0 || rows.some((column) => column.name === 'cost_flag')) continue;
        await sql`alter table ${sql.table(table)} add column cost_flag text`.execute(db);
      }
    },
  };
}
