import { Kysely, Migration, MigrationProvider, sql } from 'kysely';
import { LedgerConnection } from './ledger-connection';
import { createJournalProgress } from './journal/journal-progress.migration';
import { addCostFlag } from './ledger-cost-flag.migration';
import { createLedgerInbox } from './ledger-inbox.migration';
import { addErrorMessageAndResultDigest } from './ledger-result-digest.migration';
import { addTokenIdentityColumns } from './ledger-token-identity.migration';
import { addUpstreamColumns } from './ledger-upstream.migration';
import { createUsageSummary } from './ledger-usage.migration';

type Driver = LedgerConnection['driver'];

/**
 * The ledger's schema history, in code (no migration folder to ship).
 * Names sort in the order they must run; never edit a released migration,
 * add the next one.
 */
export class LedgerMigrationProvider implements MigrationProvider {
  constructor(private readonly driver: Driver) {}

  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(ledgerMigrations(this.driver));
  }
}

export function ledgerMigrations(driver: Driver): Record<string, Migration> {
  return {
    '0001_create_ledger': createLedger(driver),
    '0002_usage_summary': createUsageSummary(driver),
    '0003_sqlite_inbox': createLedgerInbox(driver),
    '0004_sqlite_journal_progress': createJournalProgress(driver),
    '0005_cost_flag': addCostFlag(driver),
    '0006_error_message_result_sha256': addErrorMessageAndResultDigest(driver),
    '0007_upstream_server_tool': addUpstreamColumns(driver),
    '0008_subject_token_id': addTokenIdentityColumns(driver),
  };
}

function createLedger(driver: Driver): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ledger')
        .ifNotExists()
        .addColumn('id', driver === 'postgres' ? 'bigserial' : 'integer', (col) =>
          driver === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('time', 'bigint', (col) => col.notNull())
        .addColumn('request_id', 'text', (col) => col.notNull())
        .addColumn('trace_id', 'text', (col) => col.notNull())
        .addColumn('client_id', 'text', (col) => col.notNull())
        .addColumn('session_id', 'text', (col) => col.notNull())
        .addColumn('transport', 'text', (col) => col.notNull())
        .addColumn('method', 'text', (col) => col.notNull())
        .addColumn('target', 'text', (col) => col.notNull())
        .addColumn('arguments', 'text')
        .addColumn('outcome', 'text', (col) => col.notNull())
        .addColumn('error_code', 'integer')
        .addColumn('denial_reason', 'text')
        .addColumn('duration_ms', 'integer', (col) => col.notNull())
        .addColumn('cost', 'double precision', (col) => col.notNull().defaultTo(sql`0`))
        .addColumn('result_bytes', 'integer', (col) => col.notNull().defaultTo(sql`0`))
        .execute();
      const indexes: Array<[string, string[]]> = [
        ['ledger_client_time_idx', ['client_id', 'time']],
        ['ledger_target_time_idx', ['target', 'time']],
        ['ledger_time_idx', ['time']],
      ];
      for (const [name, columns] of indexes) {
        await db.schema.createIndex(name).ifNotExists().on('ledger').columns(columns).execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('ledger').ifExists().execute();
    },
  };
}
