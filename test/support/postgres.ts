import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './stdio-process';

/** The PostgreSQL the development machines run (trust auth); override with MCP_TEST_POSTGRES_URL. */
export const TEST_POSTGRES_URL =
  process.env.MCP_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Set to '1' (CI) so that a missing PostgreSQL fails the suites instead of skipping them. */
export const SERVICES_REQUIRED = process.env.MCP_TEST_REQUIRE_SERVICES === '1';

const PROBE = `
const { Client } = require('pg');
const client = new Client({ connectionString: process.env.PROBE_URL, connectionTimeoutMillis: 2500 });
client.connect().then(() => client.query('select 1')).then(() => client.end())
  .then(() => process.exit(0), () => process.exit(1));
`;

/**
 * Whether PostgreSQL answers, decided synchronously (a child process with a
 * 3 s limit) so that a spec can choose which suites to define before Jest
 * collects them.
 */
export function postgresReachable(url = TEST_POSTGRES_URL): boolean {
  const probe = spawnSync(process.execPath, ['-e', PROBE], {
    cwd: REPO_ROOT,
    env: { ...process.env, PROBE_URL: url },
    timeout: 3_000,
    stdio: 'ignore',
  });
  return probe.status === 0;
}
