import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { postgresReachable, TEST_POSTGRES_URL } from '../../test/support/postgres';
import { servicesAvailable } from '../../test/support/service-availability';
import { TcpProxy } from '../../test/support/tcp-proxy';
import { stdioYaml } from './testing/registry-dir.fixture';
import { PostgresUpstreamRecordStore } from './upstream-records.postgres-store';

/*
 * Scale-out replicas read the shared registry store while PostgreSQL may fail
 * over or the network may drop: a read whose connection is cut must fail, not
 * the gateway (pg reports the loss as an 'error' event on a client that
 * pg-pool leaves unhandled while it is checked out). The store connects
 * through a TCP relay this spec cuts.
 */

const reachable = postgresReachable();
const available = servicesAvailable('upstream records store across a connection cut', [
  { name: 'PostgreSQL', ok: reachable, detail: TEST_POSTGRES_URL },
]);

(available ? describe : describe.skip)(
  'PostgresUpstreamRecordStore across a connection cut',
  () => {
    const schema = `owlclaw_records_cut_${randomUUID().slice(0, 8)}`;
    let admin: Client;
    let proxy: TcpProxy;
    let store: PostgresUpstreamRecordStore;
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);

    beforeAll(async () => {
      admin = new Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      const target = new URL(TEST_POSTGRES_URL);
      proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
      target.hostname = '127.0.0.1';
      target.port = String(proxy.port);
      target.searchParams.set('options', `-c search_path=${schema}`);
      store = new PostgresUpstreamRecordStore(target.toString());
      await store.init();
      process.on('uncaughtException', onUncaught);
    });

    afterAll(async () => {
      process.off('uncaughtException', onUncaught);
      await store?.close();
      await proxy?.stop();
      await admin?.query(`drop schema if exists ${schema} cascade`);
      await admin?.end();
    });

    /** Polls until a statement waits on the admin's lock on the records table, that is, runs on the server. */
    async function untilReadWaitsOnLock(): Promise<boolean> {
      for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
        const { rows } = await admin.query<{ waiting: number }>(
          'select count(*)::int as waiting from pg_locks where relation = $1::regclass and not granted',
          [`${schema}.upstream_servers`],
        );
        if (rows[0].waiting > 0) return true;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return false;
    }

    it('fails the read whose connection is cut mid-query, and reads again once it can connect', async () => {
      await store.put('alpha', 'yaml', stdioYaml('alpha'));

      // The admin's lock holds the store's read on the server, so the cut lands while that read runs.
      await admin.query('begin');
      try {
        await admin.query(`lock table ${schema}.upstream_servers in access exclusive mode`);
        const cutMidQuery = store.list();
        expect(await untilReadWaitsOnLock()).toBe(true);
        await proxy.stop();
        await expect(cutMidQuery).rejects.toThrow(/terminated|ECONNRESET/);
      } finally {
        await admin.query('rollback');
      }
      expect(uncaught).toEqual([]);

      await proxy.restart();
      expect(await store.list()).toEqual([
        { name: 'postgres:alpha.yaml', bytes: Buffer.from(stdioYaml('alpha')) },
      ]);
    });
  },
);
