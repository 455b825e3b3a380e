import { Client } from 'pg';
import {
  postgresReachable,
  SERVICES_REQUIRED,
  TEST_POSTGRES_URL,
} from '../../test/support/postgres';
import { KyselyLedgerStore } from './kysely-ledger.store';
import { defineLedgerStoreContract } from './ledger-store.contract';
import { LedgerConnection } from './ledger-connection';
import { seedLegacyLedger } from './testing/legacy-ledger';
import { ledgerRow } from './testing/ledger-row.fixture';

const available = postgresReachable();

if (!available) {
  process.stderr.write(
    `\n!!! PostgreSQL is not reachable at ${TEST_POSTGRES_URL}: the PostgreSQL ledger contract tests are SKIPPED` +
      `${SERVICES_REQUIRED ? ' (and MCP_TEST_REQUIRE_SERVICES=1 makes that a failure)' : ''}. !!!\n\n`,
  );
}

if (SERVICES_REQUIRED) {
  describe('PostgreSQL for the ledger contract', () => {
    it(`is reachable at ${TEST_POSTGRES_URL} (MCP_TEST_REQUIRE_SERVICES=1)`, () => {
      expect(available).toBe(true);
    });
  });
}

// The issue requires suites that cannot reach PostgreSQL to say loudly that they were skipped
// (the stderr warning above) rather than pass silently or fail on developer machines without it;
// this is the one sanctioned conditional skip. With MCP_TEST_REQUIRE_SERVICES=1 the test above fails.
(available ? describe : describe.skip)('KyselyLedgerStore on PostgreSQL', () => {
  const runId = `ledger_test_${process.pid}_${Date.now().toString(36)}`;
  const schemas: string[] = [];
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
  });

  afterAll(async () => {
    for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  /** Each database is a fresh schema, made the whole search_path of the store's pool. */
  async function newSchema(): Promise<string> {
    const schema = `${runId}_${schemas.length + 1}`;
    await admin.query(`create schema ${schema}`);
    schemas.push(schema);
    return schema;
  }

  const connectionTo = (schema: string): LedgerConnection => ({
    driver: 'postgres',
    pool: { connectionString: TEST_POSTGRES_URL, options: `-c search_path=${schema}` },
  });
  const storeIn = (schema: string) => new KyselyLedgerStore(connectionTo(schema));

  defineLedgerStoreContract({
    newDatabase: async () => {
      const schema = await newSchema();
      return () => storeIn(schema);
    },
    newLegacyDatabase: async (rows) => {
      const schema = await newSchema();
      await seedLegacyLedger(connectionTo(schema), rows);
      return () => storeIn(schema);
    },
  });

  it('creates the table, its indexes and the migration tables inside its own schema', async () => {
    const schema = await newSchema();
    const store = storeIn(schema);
    await store.init();
    await store.append([ledgerRow()]);
    await store.close();

    const tables = await admin.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = $1 order by table_name`,
      [schema],
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'kysely_migration',
      'kysely_migration_lock',
      'ledger',
      'ledger_daily_calls',
      'ledger_usage',
    ]);
    const indexes = await admin.query<{ indexname: string }>(
      `select indexname from pg_indexes where schemaname = $1 and tablename = 'ledger'`,
      [schema],
    );
    expect(indexes.rows.map((r) => r.indexname).sort()).toEqual([
      'ledger_client_id_idx',
      'ledger_pkey',
      'ledger_target_id_idx',
      'ledger_time_client_idx',
    ]);
    const count = await admin.query<{ n: string }>(`select count(*) as n from ${schema}.ledger`);
    expect(count.rows[0].n).toBe('1');
  });

  it('keeps the summary for writers outside the gateway, whatever their search_path', async () => {
    const schema = await newSchema();
    const store = storeIn(schema);
    await store.init();
    const now = Date.UTC(2026, 2, 14, 12, 30);
    // `admin` has the default search_path: it names the ledger by schema, as a bulk load would.
    await admin.query(
      `insert into ${schema}.ledger (time, request_id, trace_id, client_id, session_id, transport,
         method, target, outcome, duration_ms, cost)
       select $1::bigint - g, 'n:' || g, 't', 'bulk', 's', 'stdio', 'tools/call', 'orders_get',
         'success', 1, 0.5
       from generate_series(1, 40) as g`,
      [now],
    );
    await admin.query(`delete from ${schema}.ledger where time < $1`, [now - 10]);
    const [bulk] = await store.usage(now, 'bulk');
    await store.close();

    expect(bulk).toMatchObject({ callsToday: 10, callsThisMonth: 10, spendThisMonth: 5 });
    expect(bulk.topTools).toEqual([{ target: 'orders_get', calls: 10 }]);
  });
});
