import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  postgresReachable,
  SERVICES_REQUIRED,
  TEST_POSTGRES_URL,
} from '../../test/support/postgres';
import { stdioYaml } from './testing/registry-dir.fixture';
import { PostgresUpstreamRecordStore } from './upstream-records.postgres-store';
import { RecordStoreConflict } from './upstream-record.store';
import { REGISTRY_LIMITS } from './upstream-registry.limits';

const available = postgresReachable();
if (!available) {
  process.stderr.write(
    `\n!!! PostgreSQL is not reachable at ${TEST_POSTGRES_URL}: the registry store tests are SKIPPED` +
      `${SERVICES_REQUIRED ? ' (and MCP_TEST_REQUIRE_SERVICES=1 makes that a failure)' : ''}. !!!\n\n`,
  );
}
if (SERVICES_REQUIRED) {
  it(`PostgreSQL is reachable at ${TEST_POSTGRES_URL} (MCP_TEST_REQUIRE_SERVICES=1)`, () => {
    expect(available).toBe(true);
  });
}

(available ? describe : describe.skip)('PostgresUpstreamRecordStore (scale-out mode)', () => {
  const schema = `owlclaw_records_${randomUUID().slice(0, 8)}`;
  const url = `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let admin: Client;
  const stores: PostgresUpstreamRecordStore[] = [];

  async function open(): Promise<PostgresUpstreamRecordStore> {
    const store = new PostgresUpstreamRecordStore(url);
    stores.push(store);
    await store.init();
    return store;
  }

  beforeAll(async () => {
    admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  });

  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('migrates once however many replicas start together, and bumps the revision on every write', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    const start = await a.revision();
    await a.put('alpha', 'yaml', stdioYaml('alpha'));
    expect(await b.revision()).not.toBe(start);
    expect(await b.list()).toEqual([
      { name: 'postgres:alpha.yaml', bytes: Buffer.from(stdioYaml('alpha')) },
    ]);
    const afterPut = await b.revision();
    await b.put('alpha', 'json', '{"version":1}');
    expect(await a.revision()).not.toBe(afterPut);
    expect((await a.list()).map((file) => file.name)).toEqual(['postgres:alpha.json']);
    await a.remove('alpha', 'postgres:alpha.json');
    expect(await b.list()).toEqual([]);
  });

  it('refuses to delete a server that a directory file defines', async () => {
    const store = await open();
    await expect(store.remove('fs', '10-fs.yaml')).rejects.toBeInstanceOf(RecordStoreConflict);
  });

  it(`fails a read of more than ${REGISTRY_LIMITS.maxFiles} records instead of loading them`, async () => {
    const store = await open();
    await admin.query(
      `insert into ${schema}.upstream_servers (server_id, format, body, updated_at)
       select 'bulk' || n, 'json', '{}', 0 from generate_series(1, ${REGISTRY_LIMITS.maxFiles + 1}) n`,
    );
    await expect(store.list()).rejects.toThrow(`more than ${REGISTRY_LIMITS.maxFiles} records`);
    await admin.query(`delete from ${schema}.upstream_servers`);
  });
});
