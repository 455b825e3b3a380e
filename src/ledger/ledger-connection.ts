import { PoolConfig } from 'pg';
import { LedgerConfig } from '../config/gateway-config';

/** Where the ledger lives: an embedded SQLite file or a PostgreSQL pool. */
export type LedgerConnection =
  { driver: 'sqlite'; path: string } | { driver: 'postgres'; pool: PoolConfig };

export function ledgerConnectionFromConfig(config: LedgerConfig): LedgerConnection {
  return config.driver === 'postgres'
    ? { driver: 'postgres', pool: { connectionString: config.postgres_url } }
    : { driver: 'sqlite', path: config.sqlite_path };
}
