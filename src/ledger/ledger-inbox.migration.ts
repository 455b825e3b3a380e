import { Kysely, Migration, sql } from 'kysely';
import { LedgerConnection } from './ledger-connection';

/**
 * 0003: `ledger_inbox` on SQLite, where a call's row is committed before its
 * response (see sqlite-ledger-inbox.ts); the same columns as `ledger`, no id,
 * no index, no trigger. PostgreSQL keeps appending to `ledger` directly (its
 * cost there is the round trip, which group commit already shares), so the
 * migration does nothing on it.
 */
export function createLedgerInbox(driver: LedgerConnection['driver']): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (driver === 'postgres') return;
      // IF NOT EXISTS: an older gateway, which did not migrate in one transaction, may have built it
      // without recording the migration.
      await sql`create table if not exists ledger_inbox (
        time bigint not null,
        request_id text not null,
        trace_id text not null,
        client_id text not null,
        session_id text not null,
        transport text not null,
        method text not null,
        target text not null,
        arguments text,
        outcome text not null,
        error_code integer,
        denial_reason text,
        duration_ms integer not null,
        cost double precision not null default 0,
        result_bytes integer not null default 0
      )`.execute(db);
    },
  };
}
