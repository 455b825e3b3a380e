import { SqliteDatabase } from './sqlite-driver';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const SQLITE_BUSY_TIMEOUT_MS = 5_000;
const SQLITE_WAL_CHECKPOINT_PAGES = 4_000;

/**
 * Opens (creating it and its directory) a ledger database with the settings
 * every connection to it uses: Kysely's, and the journal mover's in its
 * worker thread.
 */
export function openSqlite(path: string): SqliteDatabase {
  const memory = path === ':memory:';
  if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new SqliteDatabase(memory ? path : resolve(path));
  // WAL + NORMAL: a commit survives a process kill (not a power cut) without an fsync per commit.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // A checkpoint (with its fsyncs) every 4,000 WAL pages (16 MiB) instead of 1,000: commits rewrite
  // the same few pages, copied back once per checkpoint, so fewer checkpoints make commits cheaper
  // (docs/performance.md).
  db.pragma(`wal_autocheckpoint = ${SQLITE_WAL_CHECKPOINT_PAGES}`);
  // Several gateways (or tests) may share one file; writers wait instead of failing.
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return db;
}
