import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../../test/support/rpc-adapter';
import { REPO_ROOT } from '../../test/support/stdio-process';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyLedgerStore } from './kysely-ledger.store';
import { ledgerPageQuery } from './ledger-page.query';
import { LedgerQuery } from './ledger-store';
import { LedgerDatabase } from './ledger.schema';
import { defineLedgerStoreContract } from './ledger-store.contract';
import { seedLegacyLedger } from './testing/legacy-ledger';
import { SqliteLedgerInbox } from './sqlite-ledger-inbox';
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

  describe('the inbox (rows committed before the response, moved into ledger after)', () => {
    const count = (db: Database.Database, table: string) =>
      (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

    it('holds a row once append resolves, and any read of the store moves it first', async () => {
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path });
      await store.init();
      const outside = new Database(path, { readonly: true });
      try {
        const row = ledgerRow({ clientId: 'inbox-client', cost: 2.5 });
        await store.append([row]);
        // Committed (another connection sees it) though not yet in ledger.
        expect(count(outside, 'ledger_inbox')).toBe(1);
        expect(count(outside, 'ledger')).toBe(0);

        const page = await store.query({ clientId: 'inbox-client', limit: 10 });
        expect(page.map((r) => r.requestId)).toEqual([row.requestId]);
        expect(count(outside, 'ledger_inbox')).toBe(0);
        expect(count(outside, 'ledger')).toBe(1);
        await store.append([ledgerRow({ clientId: 'inbox-client', cost: 1 })]);
        expect(await store.spendSince('inbox-client', 0)).toBe(3.5);
      } finally {
        outside.close();
        await store.close();
      }
    });

    it('moves rows into ledger on its own shortly after, in the order they were committed', async () => {
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path });
      await store.init();
      const outside = new Database(path, { readonly: true });
      try {
        const rows = Array.from({ length: 30 }, () => ledgerRow({ clientId: 'ordered' }));
        await store.append(rows.slice(0, 1));
        await store.append(rows.slice(1));
        await waitUntil(() => count(outside, 'ledger') === 30);
        expect(count(outside, 'ledger_inbox')).toBe(0);
        const ids = outside
          .prepare('select request_id from ledger order by id')
          .all()
          .map((r) => (r as { request_id: string }).request_id);
        expect(ids).toEqual(rows.map((r) => r.requestId));
      } finally {
        outside.close();
        await store.close();
      }
    });

    it('leaves nothing behind when a process dies before its move: the next store moves it in', async () => {
      const path = newPath();
      const first = new KyselyLedgerStore({ driver: 'sqlite', path });
      await first.init();
      await first.close();
      // What a SIGKILLed gateway leaves: rows committed to the inbox, none moved.
      const raw = new Database(path);
      const orphans = Array.from({ length: 2_500 }, (_, i) =>
        ledgerRow({ clientId: `orphan-${i % 2}`, cost: 1 }),
      );
      new SqliteLedgerInbox(raw).append(orphans);
      raw.close();

      const next = new KyselyLedgerStore({ driver: 'sqlite', path });
      await next.init();
      try {
        const outside = new Database(path, { readonly: true });
        try {
          expect(count(outside, 'ledger_inbox')).toBe(0);
          expect(count(outside, 'ledger')).toBe(2_500);
        } finally {
          outside.close();
        }
        // The usage summary (kept by the triggers) counts them too.
        const usage = await next.usage(orphans[0].time, 'orphan-0');
        expect(usage[0]).toEqual(
          expect.objectContaining({
            clientId: 'orphan-0',
            callsThisMonth: 1_250,
            spendThisMonth: 1_250,
          }),
        );
      } finally {
        await next.close();
      }
    });

    it("moves another process's inbox rows when it reads, each row once", async () => {
      const path = newPath();
      const a = new KyselyLedgerStore({ driver: 'sqlite', path });
      const b = new KyselyLedgerStore({ driver: 'sqlite', path });
      await a.init();
      await b.init();
      try {
        await a.append([ledgerRow({ clientId: 'shared' }), ledgerRow({ clientId: 'shared' })]);
        await b.append([ledgerRow({ clientId: 'shared' })]);
        expect(await b.query({ clientId: 'shared', limit: 10 })).toHaveLength(3);
        expect(await a.query({ clientId: 'shared', limit: 10 })).toHaveLength(3);
      } finally {
        await a.close();
        await b.close();
      }
    });
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
