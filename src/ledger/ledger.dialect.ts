import { Logger } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Dialect, PostgresDialect } from 'kysely';
import type { Pool } from 'pg';
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
    return new PostgresDialect({ pool: () => Promise.resolve(openPool(connection)) });
  }
  return new SqliteLedgerDialect({
    database: () => {
      const db = openSqlite(connection.path);
      onSqliteOpen?.(db);
      return Promise.resolve(cachingStatements(db));
    },
  });
}

function openPool(connection: Extract<LedgerConnection, { driver: 'postgres' }>): Pool {
  const pool = new (loadPg().Pool)({ max: POSTGRES_POOL_SIZE, ...connection.pool });
  // An idle client dropped by the server emits 'error'; unhandled, that would kill the process.
  pool.on('error', (err) =>
    new Logger('LedgerStore').warn({ msg: 'idle PostgreSQL client failed', error: err.message }),
  );
  // pg-pool stops listening while a client is checked out; its query fails on its own, so the event only needs a listener.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** pg is loaded only for a PostgreSQL ledger: the embedded SQLite default is spared its memory. */
function loadPg(): typeof import('pg') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load needs a synchronous require
  return require('pg') as typeof import('pg');
}
