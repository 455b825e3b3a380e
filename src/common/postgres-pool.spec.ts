import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { postgresReachable, TEST_POSTGRES_URL } from '../../test/support/postgres';
import { eventually } from '../../test/support/process-table';
import { servicesAvailable } from '../../test/support/service-availability';
import { TcpProxy } from '../../test/support/tcp-proxy';
import { openPostgresPool } from './postgres-pool';

/*
 * Both ways a cut connection reaches a pg pool: through an idle client (the
 * pool's 'error' event, logged under the caller's logger) and through a
 * checked-out one (the client's own 'error' event, which pg-pool leaves
 * unhandled). Neither may end the process. The pool connects through a TCP
 * relay this spec cuts.
 */

const reachable = postgresReachable();
const available = servicesAvailable('PostgreSQL pool opener', [
  { name: 'PostgreSQL', ok: reachable, detail: TEST_POSTGRES_URL },
]);

(available ? describe : describe.skip)('openPostgresPool', () => {
  const logger = new Logger('PoolSpec');
  let proxy: TcpProxy;
  let pool: Pool;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    pool = openPostgresPool({ max: 2, connectionString: target.toString() }, logger);
    process.on('uncaughtException', onUncaught);
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await pool?.end();
    await proxy?.stop();
  });

  it("logs an idle client's cut connection under the caller's logger and drops that client", async () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    await pool.query('select 1');
    expect(pool.idleCount).toBe(1);

    await proxy.stop();
    expect(await eventually(() => warn.mock.calls.length > 0)).toBe(true);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ msg: 'idle PostgreSQL client failed' }),
    );
    expect(pool.totalCount).toBe(0);
    expect(uncaught).toEqual([]);

    await proxy.restart();
    const { rows } = await pool.query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('fails the query of a checked-out client whose connection is cut, not the process', async () => {
    const client = await pool.connect();
    try {
      const sleeping = client.query('select pg_sleep(5)');
      await proxy.stop();
      await expect(sleeping).rejects.toThrow(/terminated|ECONNRESET/);
    } finally {
      client.release();
    }
    expect(uncaught).toEqual([]);

    await proxy.restart();
    const { rows } = await pool.query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
  });
});
