import { Kysely, Migration, sql } from 'kysely';
import { LedgerConnection } from '../ledger-connection';

/**
 * 0004: `ledger_journal_progress` on SQLite: how many bytes of each journal
 * file are in `ledger` (journal/ledger-journal.mover.ts). Recorded in the
 * transaction that inserts those rows, so a row is never moved twice.
 * PostgreSQL has no journal.
 */
export function createJournalProgress(driver: LedgerConnection['driver']): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (driver === 'postgres') return;
      // IF NOT EXISTS: two processes migrating one file at once both get here (Kysely takes no lock).
      await sql`create table if not exists ledger_journal_progress (
        file text primary key,
        moved_bytes integer not null
      )`.execute(db);
    },
  };
}
