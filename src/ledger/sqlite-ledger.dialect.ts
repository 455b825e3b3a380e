import {
  CompiledQuery,
  DatabaseConnection,
  DialectAdapter,
  Driver,
  SqliteAdapter,
  SqliteDialect,
  SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * Kysely's SQLite dialect, with migrations serialized across processes.
 * Kysely takes no lock on SQLite (it assumes one connection), so processes
 * sharing one ledger file, such as stdio gateways started together, would
 * read the schema at once and apply the same migration twice. Here a
 * migration run is one transaction that takes the write lock when it
 * begins: the next process waits for it (busy_timeout), then finds the
 * migrations recorded.
 */
export class SqliteLedgerDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new WriteLockingSqliteDriver(this.config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** Every transaction takes the write lock at BEGIN, before it reads what it will change. */
class WriteLockingSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SQLite runs DDL in transactions; told so, Kysely's Migrator runs all pending migrations in one. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
