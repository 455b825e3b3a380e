import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KyselyLedgerStore } from './kysely-ledger.store';
import { defineLedgerStoreContract, ledgerRow } from './ledger-store.contract';

describe('KyselyLedgerStore on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-ledger-sqlite-'));
  let databases = 0;
  const newPath = () => join(dir, `db-${++databases}`, 'nested', 'ledger.db');

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  defineLedgerStoreContract({
    newDatabase: () => {
      const path = newPath();
      return Promise.resolve(() => new KyselyLedgerStore({ driver: 'sqlite', path }));
    },
  });

  it('creates the directory and a WAL-mode file with the ledger table and its indexes', async () => {
    const path = newPath();
    expect(existsSync(join(path, '..'))).toBe(false);
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    await store.append([ledgerRow()]);
    await store.close();

    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const indexes = db
        .prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'ledger'`)
        .all()
        .map((row) => (row as { name: string }).name);
      expect(indexes).toEqual(
        expect.arrayContaining([
          'ledger_client_time_idx',
          'ledger_target_time_idx',
          'ledger_time_idx',
        ]),
      );
      expect(db.prepare('select count(*) as n from ledger').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });
});
