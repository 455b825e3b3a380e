import { SqliteDatabase } from './sqlite-driver';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../../test/support/rpc-adapter';
import { REPO_ROOT } from '../../test/support/stdio-process';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyLedgerStore } from './kysely-ledger.store';
import { ledgerPageQuery } from './ledger-page.query';
import { ledgerMigrations } from './ledger.migrations';
import { LedgerQuery } from './ledger-store';
import { LedgerDatabase } from './ledger.schema';
import { defineLedgerStoreContract } from './ledger-store.contract';
import { seedLegacyLedger } from './testing/legacy-ledger';
import { SqliteLedgerInbox } from './sqlite-ledger-inbox';
import { ledgerRow } from './testing/ledger-row.fixture';
import { journalDirFor } from './journal/journal-files';
import { toColumnValues } from './ledger-row.columns';

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

    const db = new SqliteDatabase(path, { readonly: true });
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

  describe('the journal (rows committed before the response, moved into ledger after)', () => {
    const count = (db: SqliteDatabase, table: string) =>
      (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    const journalFiles = (path: string) =>
      existsSync(journalDirFor(path)) ? readdirSync(journalDirFor(path)).sort() : [];
    const journalLines = (path: string) =>
      journalFiles(path)
        .filter((name) => name.endsWith('.jsonl'))
        .flatMap((name) => readFileSync(join(journalDirFor(path), name), 'utf8').split('\n'))
        .filter((line) => line !== '');

    it('holds a row in its journal file once append resolves, and any read of the store moves it first', async () => {
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path });
      await store.init();
      const outside = new SqliteDatabase(path, { readonly: true });
      try {
        const row = ledgerRow({ clientId: 'journal-client', cost: 2.5 });
        await store.append([row]);
        // On disk (another reader sees it) though not yet in ledger.
        expect(journalLines(path)).toEqual([JSON.stringify(toColumnValues(row))]);
        expect(count(outside, 'ledger')).toBe(0);

        const page = await store.query({ clientId: 'journal-client', limit: 10 });
        expect(page.map((r) => r.requestId)).toEqual([row.requestId]);
        expect(count(outside, 'ledger')).toBe(1);
        await store.append([ledgerRow({ clientId: 'journal-client', cost: 1 })]);
        expect(await store.spendSince('journal-client', 0)).toBe(3.5);
        expect(count(outside, 'ledger')).toBe(2);
      } finally {
        outside.close();
        await store.close();
      }
      // A clean close moves everything and leaves no file behind.
      expect(journalFiles(path)).toEqual([]);
    });

    it('moves rows into ledger on its own shortly after, in the order they were committed', async () => {
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path });
      await store.init();
      const outside = new SqliteDatabase(path, { readonly: true });
      try {
        const rows = Array.from({ length: 30 }, () => ledgerRow({ clientId: 'ordered' }));
        await store.append(rows.slice(0, 1));
        await store.append(rows.slice(1));
        await waitUntil(() => count(outside, 'ledger') === 30);
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

    it('leaves nothing behind when a process is killed before its move: the next store moves its rows in', async () => {
      const path = newPath();
      // dist/ is built by Jest's global setup; the child is a real process, killed with SIGKILL.
      const script = `
        const { KyselyLedgerStore } = require(${JSON.stringify(join(REPO_ROOT, 'dist/ledger/kysely-ledger.store.js'))});
        const row = JSON.parse(process.argv[2]);
        const store = new KyselyLedgerStore({ driver: 'sqlite', path: process.argv[1] });
        store.init().then(async () => {
          for (let i = 0; i < 25; i++) {
            await store.append(Array.from({ length: 100 }, (_, j) => ({ ...row, requestId: i + ':' + j, clientId: 'orphan-' + (j % 2) })));
          }
          process.kill(process.pid, 'SIGKILL');
        });`;
      const template = ledgerRow({ cost: 1 });
      const child = spawn(process.execPath, ['-e', script, path, JSON.stringify(template)], {
        stdio: 'inherit',
      });
      const signal = await new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
      expect(signal).toBe('SIGKILL');
      expect(journalFiles(path).length).toBeGreaterThan(0);

      const next = new KyselyLedgerStore({ driver: 'sqlite', path });
      await next.init();
      try {
        const outside = new SqliteDatabase(path, { readonly: true });
        try {
          expect(count(outside, 'ledger')).toBe(2_500);
        } finally {
          outside.close();
        }
        // The dead process's journal and lock are gone; only the new store's own files remain.
        expect(journalFiles(path)).toHaveLength(2);
        // The usage summary (kept by the triggers) counts them too.
        const usage = await next.usage(template.time, 'orphan-0');
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
      expect(journalFiles(path)).toEqual([]);
    });

    it('moves rows an earlier version left in ledger_inbox when it opens the file', async () => {
      const path = newPath();
      const first = new KyselyLedgerStore({ driver: 'sqlite', path });
      await first.init();
      await first.close();
      const raw = new SqliteDatabase(path);
      const orphans = Array.from({ length: 2_500 }, (_, i) =>
        ledgerRow({ clientId: `legacy-${i % 2}`, cost: 1 }),
      );
      new SqliteLedgerInbox(raw).append(orphans);
      raw.close();

      const next = new KyselyLedgerStore({ driver: 'sqlite', path });
      await next.init();
      try {
        const outside = new SqliteDatabase(path, { readonly: true });
        try {
          expect(count(outside, 'ledger_inbox')).toBe(0);
          expect(count(outside, 'ledger')).toBe(2_500);
        } finally {
          outside.close();
        }
      } finally {
        await next.close();
      }
    });

    it("moves another live store's rows when it reads, each row once, and leaves its journal to it", async () => {
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
        // Both owners are alive: each keeps its journal and its lock.
        expect(journalFiles(path)).toHaveLength(4);
        await a.append([ledgerRow({ clientId: 'shared' })]);
        expect(await b.query({ clientId: 'shared', limit: 10 })).toHaveLength(4);
      } finally {
        await a.close();
        await b.close();
      }
      expect(journalFiles(path)).toEqual([]);
    });
  });

  /** Starts `count` processes that each open and migrate the ledger at `path`; their exit codes. */
  async function migrateFromProcesses(path: string, count: number): Promise<Array<number | null>> {
    // dist/ is built by Jest's global setup; each child is a separate SQLite connection and process.
    const script = `
      const { KyselyLedgerStore } = require(${JSON.stringify(join(REPO_ROOT, 'dist/ledger/kysely-ledger.store.js'))});
      const store = new KyselyLedgerStore({ driver: 'sqlite', path: process.argv[1] });
      store.init().then(() => store.close()).then(() => process.exit(0), (err) => {
        console.error(err.message);
        process.exit(1);
      });`;
    return Promise.all(
      Array.from({ length: count }, () => {
        const child = spawn(process.execPath, ['-e', script, path], { stdio: 'inherit' });
        return new Promise<number | null>((resolve) => child.on('exit', resolve));
      }),
    );
  }

  it('lets processes started together create one new file: each starts, every migration is recorded once', async () => {
    // Stdio gateways sharing a ledger file start together; before migrations took the write
    // lock, two of them could add the same column ("duplicate column name"). The timeout is long:
    // Node processes starting together on a loaded 2-core machine take seconds each.
    for (let round = 0; round < 2; round++) {
      const path = newPath();
      expect(await migrateFromProcesses(path, 5)).toEqual([0, 0, 0, 0, 0]);
      const db = new SqliteDatabase(path, { readonly: true });
      try {
        const names = db.prepare('select name from kysely_migration order by name').pluck().all();
        expect(names).toEqual(Object.keys(ledgerMigrations('sqlite')));
      } finally {
        db.close();
      }
    }
  }, 120_000);

  it('lets several processes migrate one file at once: each starts, the summary counts every row once', async () => {
    const path = newPath();
    await seedLegacyLedger(
      { driver: 'sqlite', path },
      Array.from({ length: 5_000 }, (_, i) => ledgerRow({ clientId: `c${i % 3}` })),
    );
    expect(await migrateFromProcesses(path, 3)).toEqual([0, 0, 0]);

    const db = new SqliteDatabase(path, { readonly: true });
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

    const db = new SqliteDatabase(path, { readonly: true });
    const kysely = new Kysely<LedgerDatabase>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
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
