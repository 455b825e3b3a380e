import { SqliteDatabase } from '../../src/ledger/sqlite-driver';
import { Client } from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillPostgresLedger, fillSqliteLedger } from '../../bench/lib/ledger-fill';
import { LEDGER_COLUMNS } from '../../bench/lib/ledger-rows';
import { KyselyLedgerStore } from '../../src/ledger/kysely-ledger.store';
import { postgresReachable, SERVICES_REQUIRED, TEST_POSTGRES_URL } from '../support/postgres';

/**
 * The bench's synthetic ledger rows must fit the table the gateway migrates: a column added to
 * the ledger without them breaks `npm run bench` only at its ledger section, minutes in.
 */
describe('bench ledger fill', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-bench-fill-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fills a migrated SQLite ledger with a value for every column', async () => {
    const path = join(dir, 'ledger.db');
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    await store.close();

    fillSqliteLedger(path, 300);

    const db = new SqliteDatabase(path, { readonly: true });
    try {
      const columns = (db.prepare('pragma table_info(ledger)').all() as { name: string }[])
        .map((column) => column.name)
        .filter((name) => name !== 'id');
      expect(columns).toEqual([...LEDGER_COLUMNS]);
      expect(db.prepare('select count(*) as n from ledger').get()).toEqual({ n: 300 });
    } finally {
      db.close();
    }
  });

  const available = postgresReachable();
  if (!available && !SERVICES_REQUIRED) {
    process.stderr.write(
      `\n!!! PostgreSQL is not reachable at ${TEST_POSTGRES_URL}: the bench's PostgreSQL fill test is SKIPPED. !!!\n\n`,
    );
  }

  (available || SERVICES_REQUIRED ? it : it.skip)(
    'fills a migrated PostgreSQL ledger with the same rows',
    async () => {
      const schema = `bench_fill_${process.pid}_${Date.now().toString(36)}`;
      const admin = new Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      try {
        await admin.query(`create schema ${schema}`);
        const store = new KyselyLedgerStore({
          driver: 'postgres',
          pool: { connectionString: TEST_POSTGRES_URL, options: `-c search_path=${schema}` },
        });
        await store.init();
        await store.close();

        await fillPostgresLedger(admin, schema, 300);

        const { rows } = await admin.query<{ n: string }>(
          `select count(*) as n from ${schema}.ledger where result_sha256 is not null`,
        );
        // Rows whose bucket is 0 or 1 of 100 are denials, which carry no result.
        expect(Number(rows[0].n)).toBe(300 - 6);
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
  );
});
