import { SqliteDatabase } from '../../src/ledger/sqlite-driver';
import { resolve } from 'node:path';
import { journalDirFor, listJournals } from '../../src/ledger/journal/journal-files';
import { LedgerJournalMover } from '../../src/ledger/journal/ledger-journal.mover';
import { SqliteLedgerInbox } from '../../src/ledger/sqlite-ledger-inbox';

/**
 * Opens a gateway's SQLite ledger for reading its rows straight from the
 * file. A gateway commits each row to its journal file and moves it into
 * `ledger` a moment later (or on its next read); this moves every journal
 * line not moved yet first (each exactly once, as any gateway sharing the
 * file would, leaving the files to their owners), and what an earlier
 * version left in `ledger_inbox`, so that `ledger` holds every committed
 * row. The caller closes the database.
 */
export function openSettledLedger(path: string): SqliteDatabase {
  const db = new SqliteDatabase(path, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  new SqliteLedgerInbox(db).moveAll();
  const dir = journalDirFor(resolve(path));
  const mover = new LedgerJournalMover(db, {
    warn: (message) => {
      throw new Error(`ledger journal: ${JSON.stringify(message)}`);
    },
  });
  for (const file of listJournals(dir)) mover.moveFile(dir, file.name);
  return db;
}

/** The settled rows of a SQLite ledger file, oldest first (of one client when given). */
export function readLedgerRows<Row>(path: string, clientId?: string): Row[] {
  const db = openSettledLedger(path);
  try {
    return clientId === undefined
      ? (db.prepare('select * from ledger order by id').all() as Row[])
      : (db.prepare('select * from ledger where client_id = ? order by id').all(clientId) as Row[]);
  } finally {
    db.close();
  }
}

/** A client's ledger rows once at least `count` are there (rows land a moment after the answer). */
export async function waitForLedgerRows<Row>(
  path: string,
  clientId: string,
  count: number,
): Promise<Row[]> {
  for (let tries = 0; tries < 100; tries++) {
    const rows = readLedgerRows<Row>(path, clientId);
    if (rows.length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} ledger rows for ${clientId}`);
}
