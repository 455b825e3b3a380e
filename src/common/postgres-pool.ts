import type { Logger } from '@nestjs/common';
import type { Pool, PoolConfig } from 'pg';

/**
 * Opens a pg pool that survives its connections being cut (a fail-over, a
 * network cut, a server restart): the affected query fails, the process does
 * not. Failures of idle clients are logged under the caller's `logger`.
 */
export function openPostgresPool(options: PoolConfig, logger: Logger): Pool {
  const pool = new (loadPg().Pool)(options);
  // An idle client dropped by the server emits 'error' through the pool; unhandled, that would kill the process.
  pool.on('error', (err) =>
    logger.warn({ msg: 'idle PostgreSQL client failed', error: err.message }),
  );
  // pg-pool stops listening while a client is checked out; its query fails on its own, so the event only needs a listener.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** pg is loaded only when PostgreSQL is configured (scale-out mode): the embedded default is spared its memory. */
function loadPg(): typeof import('pg') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load needs a synchronous require
  return require('pg') as typeof import('pg');
}
