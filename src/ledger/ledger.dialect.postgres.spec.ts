import { Kysely, sql } from 'kysely';
import { postgresReachable, TEST_POSTGRES_URL } from '../../test/support/postgres';
import { servicesAvailable } from '../../test/support/service-availability';
import { TcpProxy } from '../../test/support/tcp-proxy';
import { createLedgerDialect } from './ledger.dialect';

/*
 * A PostgreSQL connection that dies while a query holds it (a fail-over, a
 * network cut) must fail that query, not the process: pg reports the loss as
 * an 'error' event on the client, which pg-pool leaves unhandled while the
 * client is checked out. The connection goes through a TCP relay this spec cuts.
 */

const reachable = postgresReachable();
const available = servicesAvailable('ledger dialect (PostgreSQL)', [
  { name: 'PostgreSQL', ok: reachable, detail: TEST_POSTGRES_URL },
]);

(available ? describe : describe.skip)('the PostgreSQL ledger dialect', () => {
  let proxy: TcpProxy;
  let db: Kysely<unknown>;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    db = new Kysely({
      dialect: createLedgerDialect({
        driver: 'postgres',
        pool: { connectionString: target.toString() },
      }),
    });
    process.on('uncaughtException', onUncaught);
  });

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await db?.destroy();
    await proxy?.stop();
  });

  it('fails the transaction whose connection is cut, and serves again once it can connect', async () => {
    const cutInside = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await proxy.stop();
      // The connection is gone while the transaction still holds it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sql`select 1`.execute(trx);
    });
    await expect(cutInside).rejects.toThrow();
    expect(uncaught).toEqual([]);

    await proxy.restart();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
