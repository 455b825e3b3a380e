import { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { Dialect, PostgresDialect, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Pool } from 'pg';
import { LedgerConnection } from './ledger-connection';
import { cachingStatements } from './sqlite-statement-cache';

const SQLITE_BUSY_TIMEOUT_MS = 5_000;
const SQLITE_WAL_CHECKPOINT_PAGES = 4_000;
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
  return new SqliteDialect({
    database: () => {
      const db = openSqlite(connection.path);
      onSqliteOpen?.(db);
      return Promise.resolve(cachingStatements(db));
    },
  });
}

function openSqlite(path: string): Database.Database {
  const memory = path === ':memory:';
  if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new Database(memory ? path : resolve(path));
  // WAL + NORMAL: a commit survives a process kill (not a power cut) without an fsync per commit.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A checkpoint (with its fsyncs) every 4,000 WAL pages (16 MiB) instead of 1,000: each commit
  // rewrites the same few hot pages (index edges, the usage summary), copied back once per
  // checkpoint, so fewer checkpoints make a single-row commit about 10% cheaper.
  db.pragma(`wal_autocheckpoint = ${SQLITE_WAL_CHECKPOINT_PAGES}`);
  // Several gateways (or tests) may share one file; writers wait instead of failing.
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return db;
}

function openPool(connection: Extract<LedgerConnection, { driver: 'postgres' }>): Pool {
  const pool = new (loadPg().Pool)({ max: POSTGRES_POOL_SIZE, ...connection.pool });
  // An idle client dropped by the server emits 'error'; unhandled, that would kill the process.
  pool.on('error', (err) =>
    new Logger('LedgerStore').warn({ msg: 'idle PostgreSQL client failed', error: err.message }),
  );
  return pool;
}

/** pg is loaded only for a PostgreSQL ledger: the embedded SQLite default is spared its ~14 MiB. */
function loadPg(): typeof import('pg') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load needs a synchronous require
  return require('pg') as typeof import('pg');
}
