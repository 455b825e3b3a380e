import { Logger } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Dialect, PostgresDialect } from 'kysely';
import { openPostgresPool } from '../common/postgres-pool';
import { LedgerConnection } from './ledger-connection';
import { openSqlite } from './sqlite-database';
import { cachingStatements } from './sqlite-statement-cache';
import { SqliteLedgerDialect } from './sqlite-ledger.dialect';

const POSTGRES_POOL_SIZE = 10;

/**
 * One query layer, two engines: the Kysely dialect for a ledger connection.
 * `onSqliteOpen` receives the SQLite database once Kysely opens it (the
 * store's append path writes to it directly).
 */
export function createLedgerDialect(
  connection: LedgerConnection,
  onSqliteOpen?: (db: Database.Database) => void,
): Dialect {
  if (connection.driver === 'postgres') {
    const options = { max: POSTGRES_POOL_SIZE, ...connection.pool };
    return new PostgresDialect({
      pool: () => Promise.resolve(openPostgresPool(options, new Logger('LedgerStore'))),
    });
  }
  return new SqliteLedgerDialect({
    database: () => {
      const db = openSqlite(connection.path);
      onSqliteOpen?.(db);
      return Promise.resolve(cachingStatements(db));
    },
  });
}
