import { Logger } from '@nestjs/common';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { openPostgresPool } from '../common/postgres-pool';
import { errorChain } from './error-chain';
import { REGISTRY_LIMITS } from './upstream-registry.limits';
import type { StoredRegistryFile } from './registry.scanner';
import {
  UPSTREAM_MIGRATION_LOCK_TABLE,
  UPSTREAM_MIGRATION_TABLE,
  UpstreamRecordsMigrationProvider,
} from './upstream-records.migrations';
import { RecordStoreConflict, RegistryFormat, UpstreamRecordStore } from './upstream-record.store';

interface UpstreamRecordsDatabase {
  upstream_servers: { server_id: string; format: string; body: string; updated_at: number };
  upstream_registry_revision: { id: number; revision: string | number };
}

/** Where a stored record says it came from, in listings and rejection reasons. */
export const STORED_FILE_PREFIX = 'postgres:';

const POOL_SIZE = 2;
// A refresh that cannot reach PostgreSQL must fail (and mark the registry degraded), not hang.
const STATEMENT_TIMEOUT_MS = 5_000;

/**
 * Scale-out mode: admin-written records in a PostgreSQL table shared by every
 * replica, with a revision counter bumped in the same transaction as each
 * write, so a replica can tell by one small read whether to scan again.
 */
export class PostgresUpstreamRecordStore implements UpstreamRecordStore {
  readonly kind = 'postgres';
  private readonly db: Kysely<UpstreamRecordsDatabase>;

  constructor(connectionString: string) {
    const options = {
      max: POOL_SIZE,
      connectionString,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      connectionTimeoutMillis: STATEMENT_TIMEOUT_MS,
    };
    this.db = new Kysely<UpstreamRecordsDatabase>({
      dialect: new PostgresDialect({
        pool: () => Promise.resolve(openPostgresPool(options, new Logger('Upstreams'))),
      }),
    });
  }

  async init(): Promise<void> {
    const { rows } = await sql<{
      schema: string | null;
    }>`select current_schema() as schema`.execute(this.db);
    const migrator = new Migrator({
      db: this.db,
      provider: new UpstreamRecordsMigrationProvider(),
      migrationTableName: UPSTREAM_MIGRATION_TABLE,
      migrationLockTableName: UPSTREAM_MIGRATION_LOCK_TABLE,
      migrationTableSchema: rows[0]?.schema ?? undefined,
    });
    const { error } = await migrator.migrateToLatest();
    if (error !== undefined) {
      throw new Error(`upstream registry migration failed: ${errorChain(error)}`, { cause: error });
    }
  }

  async list(): Promise<StoredRegistryFile[]> {
    const rows = await this.db
      .selectFrom('upstream_servers')
      .select(['server_id', 'format', 'body'])
      .orderBy('server_id')
      .limit(REGISTRY_LIMITS.maxFiles + 1)
      .execute();
    if (rows.length > REGISTRY_LIMITS.maxFiles) {
      throw new Error(
        `the shared store holds more than ${REGISTRY_LIMITS.maxFiles} records (the registry's limit); nothing in it is loaded`,
      );
    }
    return rows.map((row) => ({
      name: `${STORED_FILE_PREFIX}${row.server_id}.${row.format}`,
      bytes: Buffer.from(row.body, 'utf8'),
    }));
  }

  async revision(): Promise<string> {
    const row = await this.db
      .selectFrom('upstream_registry_revision')
      .select('revision')
      .where('id', '=', 1)
      .executeTakeFirst();
    return String(row?.revision ?? 0);
  }

  async put(serverId: string, format: RegistryFormat, text: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('upstream_servers')
        .values({ server_id: serverId, format, body: text, updated_at: Date.now() })
        .onConflict((oc) =>
          oc.column('server_id').doUpdateSet({ format, body: text, updated_at: Date.now() }),
        )
        .execute();
      await bump(trx);
    });
  }

  async remove(serverId: string, definedBy: string): Promise<void> {
    if (!definedBy.startsWith(STORED_FILE_PREFIX)) {
      throw new RecordStoreConflict(
        `server ${serverId} is defined by ${definedBy} in the registry directory of each replica, ` +
          'not in the shared store; remove that file there',
      );
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('upstream_servers').where('server_id', '=', serverId).execute();
      await bump(trx);
    });
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

async function bump(trx: Kysely<UpstreamRecordsDatabase>): Promise<void> {
  await trx
    .updateTable('upstream_registry_revision')
    .set({ revision: sql`revision + 1` })
    .where('id', '=', 1)
    .execute();
}
