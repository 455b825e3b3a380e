import { Kysely, Migration, sql } from 'kysely';
import { LedgerConnection } from './ledger-connection';
import { usageSummarySql } from './ledger-usage.sql';

type Driver = LedgerConnection['driver'];

/**
 * 0002: the usage summary (`ledger_usage`, `ledger_daily_calls`) with the
 * triggers that keep it, filled once from the rows already there; and the
 * ledger's indexes rebuilt for what reads them now, as many as before (each
 * one costs every insert): (client_id, id) and (target, id) yield a filtered
 * admin page already in page order instead of sorting all of a client's or
 * tool's rows; (time, client_id) counts this minute's calls per client
 * without reading rows, and serves retention. Spend per client, which used
 * (client_id, time), comes from the summary.
 *
 * All of it commits at once, so no row is counted twice or missed: every
 * migration run is one transaction on both engines (on SQLite, one that
 * holds the write lock, see SqliteLedgerDialect). A SQLite file migrated by
 * an older gateway, which built the summary in its own transaction, may
 * have the tables without the migration's record: then it does nothing.
 */
export function createUsageSummary(driver: Driver): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (driver === 'sqlite' && (await sqliteHasTable(db, 'ledger_usage'))) return;
      await build(db, driver);
    },
  };
}

async function build(db: Kysely<unknown>, driver: Driver): Promise<void> {
  const schema = db.schema;
  const indexes: Array<[drop: string, create: string, columns: string[]]> = [
    ['ledger_client_time_idx', 'ledger_client_id_idx', ['client_id', 'id']],
    ['ledger_target_time_idx', 'ledger_target_id_idx', ['target', 'id']],
    ['ledger_time_idx', 'ledger_time_client_idx', ['time', 'client_id']],
  ];
  for (const [drop, create, columns] of indexes) {
    await schema.dropIndex(drop).ifExists().execute();
    await schema.createIndex(create).on('ledger').columns(columns).execute();
  }

  // SQLite: the rows live in the primary-key B-tree, one lookup per upsert.
  const clustered = driver === 'sqlite' ? sql`without rowid` : sql``;
  await schema
    .createTable('ledger_usage')
    .addColumn('month', 'bigint', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('target', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('calls', 'bigint', (col) => col.notNull())
    .addColumn('spend', 'double precision', (col) => col.notNull())
    .addPrimaryKeyConstraint('ledger_usage_pkey', [
      'month',
      'client_id',
      'method',
      'target',
      'outcome',
      'reason',
    ])
    .modifyEnd(clustered)
    .execute();
  await schema
    .createTable('ledger_daily_calls')
    .addColumn('day', 'bigint', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('calls', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('ledger_daily_calls_pkey', ['day', 'client_id'])
    .modifyEnd(clustered)
    .execute();

  const { triggers, backfill } = usageSummarySql(
    driver === 'postgres' ? { driver, schema: await postgresSchema(db) } : { driver },
  );
  // Triggers first: on PostgreSQL, creating one locks out writers until this transaction ends.
  for (const statement of [...triggers, ...backfill]) await sql.raw(statement).execute(db);
}

async function sqliteHasTable(db: Kysely<unknown>, name: string): Promise<boolean> {
  const { rows } = await sql<{
    found: number;
  }>`select count(*) as found from sqlite_master where type = 'table' and name = ${name}`.execute(
    db,
  );
  return Number(rows[0]?.found ?? 0) > 0;
}

/** The schema the ledger was just created in, as a quoted identifier. */
async function postgresSchema(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('ledger: the PostgreSQL search_path names no existing schema');
  return `"${schema.replaceAll('"', '""')}"`;
}
