import { Kysely, Migration, MigrationProvider, sql } from 'kysely';

/**
 * The schema of the scale-out registry store, in code like the ledger's, with
 * its own bookkeeping tables so the two histories never interleave. Never edit
 * a released migration; add the next one.
 */
export class UpstreamRecordsMigrationProvider implements MigrationProvider {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve({ '0001_upstream_servers': createUpstreamServers });
  }
}

export const UPSTREAM_MIGRATION_TABLE = 'upstream_registry_migration';
export const UPSTREAM_MIGRATION_LOCK_TABLE = 'upstream_registry_migration_lock';

const createUpstreamServers: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('upstream_servers')
      .ifNotExists()
      .addColumn('server_id', 'text', (col) => col.primaryKey())
      .addColumn('format', 'text', (col) => col.notNull())
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();
    // One row, bumped in the same transaction as every write: what replicas poll.
    await db.schema
      .createTable('upstream_registry_revision')
      .ifNotExists()
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('revision', 'bigint', (col) => col.notNull())
      .execute();
    await sql`insert into upstream_registry_revision (id, revision) values (1, 0) on conflict do nothing`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('upstream_registry_revision').ifExists().execute();
    await db.schema.dropTable('upstream_servers').ifExists().execute();
  },
};
