import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../test/support/stdio-process';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyLedgerStore } from './kysely-ledger.store';
import { ledgerPageQuery } from './ledger-page.query';
import { LedgerQuery } from './ledger-store';
import { LedgerDatabase } from './ledger.schema';
import { defineLedgerStoreContract } from './ledger-store.contract';
import { seedLegacyLedger } from './testing/legacy-ledger';
import { ledgerRow } from './testing/ledger-row.fixture';

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
    newLegacyDatabase: async (rows) => {
      const connection = { driver: 'sqlite', path: newPath() } as const;
      await seedLegacyLedger(connection, rows);
      return () => new KyselyLedgerStore(connection);
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
      expect(indexes.sort()).toEqual([
        'ledger_client_id_idx',
        'ledger_target_id_idx',
        'ledger_time_client_idx',
      ]);
      expect(db.prepare('select count(*) as n from ledger').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('lets several processes migrate one file at once: each starts, the summary counts every row once', async () => {
    const path = newPath();
    await seedLegacyLedger(
      { driver: 'sqlite', path },
      Array.from({ length: 5_000 }, (_, i) => ledgerRow({ clientId: `c${i % 3}` })),
    );
    // dist/ is built by Jest's global setup; each child is a separate SQLite connection and process.
    const script = `
      const { KyselyLedgerStore } = require(${JSON.stringify(join(REPO_ROOT, 'dist/ledger/kysely-ledger.store.js'))});
      const store = new KyselyLedgerStore({ driver: 'sqlite', path: process.argv[1] });
      store.init().then(() => store.close()).then(() => process.exit(0), (err) => {
        console.error(err.message);
        process.exit(1);
      });`;
    const exits = await Promise.all(
      Array.from({ length: 3 }, () => {
        const child = spawn(process.execPath, ['-e', script, path], { stdio: 'inherit' });
        return new Promise<number | null>((resolve) => child.on('exit', resolve));
      }),
    );
    expect(exits).toEqual([0, 0, 0]);

    const db = new Database(path, { readonly: true });
    try {
      const total = db.prepare('select sum(calls) as calls from ledger_usage').get();
      expect(total).toEqual({ calls: 5_000 });
    } finally {
      db.close();
    }
  });

  it("reads a client's or a tool's page through its (…, id) index, already in page order (no sort)", async () => {
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    await store.close();

    const db = new Database(path, { readonly: true });
    const kysely = new Kysely<LedgerDatabase>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
    });
    try {
      const plan = (query: LedgerQuery): string => {
        const { sql, parameters } = ledgerPageQuery(kysely, query).compile();
        return db
          .prepare(`explain query plan ${sql}`)
          .all(...parameters)
          .map((row) => (row as { detail: string }).detail)
          .join('; ');
      };
      for (const query of [
        { clientId: 'client-042', limit: 101 },
        { clientId: 'client-042', beforeId: 5_000, limit: 101 },
        { clientId: 'client-042', outcome: 'denied' as const, limit: 101 },
      ]) {
        expect(plan(query)).toContain('USING INDEX ledger_client_id_idx');
        expect(plan(query)).not.toContain('TEMP B-TREE');
      }
      expect(plan({ target: 'orders_get', beforeId: 5_000, limit: 101 })).toContain(
        'USING INDEX ledger_target_id_idx',
      );
      expect(plan({ target: 'orders_get', limit: 101 })).not.toContain('TEMP B-TREE');
    } finally {
      db.close();
      await kysely.destroy();
    }
  });
});
