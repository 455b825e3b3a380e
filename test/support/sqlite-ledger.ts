import Database from 'better-sqlite3';
import { LEDGER_INBOX_MOVE_ROWS } from '../../src/ledger/ledger.constants';
import { SqliteLedgerInbox } from '../../src/ledger/sqlite-ledger-inbox';

/**
 * Opens a gateway's SQLite ledger for reading its rows straight from the
 * file. A gateway commits each row to `ledger_inbox` and moves it into
 * `ledger` a moment later (or on its next read); this moves whatever is still
 * in the inbox first, as a gateway opening the file would, so that `ledger`
 * holds every committed row. The caller closes the database.
 */
export function openSettledLedger(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  new SqliteLedgerInbox(db).moveAll(LEDGER_INBOX_MOVE_ROWS);
  return db;
}
