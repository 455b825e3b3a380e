import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChildServer } from './child';
import { GATEWAY_CLI } from './paths';

/** Quota values high enough that no rate limit or budget ever triggers during a run. */
const HUGE = '1000000000';

export type LedgerSetup =
  { driver: 'off' } | { driver: 'sqlite'; path: string } | { driver: 'postgres'; url: string };

export interface GatewaySetup {
  /** Label for logs. */
  name: string;
  governance: boolean;
  ledger: LedgerSetup;
  /** Compiled capability module files (`capabilities.modules`). */
  modules: string[];
  skillsDir: string;
  /** Scratch directory for the run's config file. */
  scratch: string;
  transport: 'http' | 'stdio';
  /** Sets MCP_SERVER_ADMIN_TOKEN (enables /admin). */
  adminToken?: string;
  /** Node flags: the bench's list (options.nodeFlags), plus e.g. --cpu-prof. */
  nodeFlags: readonly string[];
  /** Extra environment variables (read by bench fixtures). */
  extraEnv?: Record<string, string>;
}

/**
 * Starts the production gateway (`node dist/cli/main.js mcp-server start`)
 * with a config file of its own plus MCP_SERVER_* variables; no MCP_* variable
 * of the caller's environment leaks into it (see childEnv).
 */
export function startGateway(setup: GatewaySetup): Promise<{ server: ChildServer; port: number }> {
  const config = join(setup.scratch, `${setup.name}.yaml`);
  writeFileSync(config, `mcp_server:\n  transport: ${setup.transport}\n`);
  return ChildServer.start({
    name: setup.name,
    nodeFlags: setup.nodeFlags,
    args: [GATEWAY_CLI, 'mcp-server', 'start', '--transport', setup.transport],
    env: gatewayEnv(setup, config),
    logFile: join(setup.scratch, `${setup.name}.stderr.log`),
    stdio: setup.transport === 'stdio',
  });
}

function gatewayEnv(setup: GatewaySetup, config: string): Record<string, string> {
  const env: Record<string, string> = {
    MCP_SERVER_CONFIG: config,
    MCP_SERVER_HTTP_HOST: '127.0.0.1',
    MCP_SERVER_HTTP_PORT: '0',
    MCP_SERVER_CAPABILITIES_DEMO_PACK: 'false',
    MCP_SERVER_CAPABILITIES_MODULES: setup.modules.join(','),
    MCP_SERVER_RESOURCES_SKILLS_DIR: setup.skillsDir,
    MCP_SERVER_GOVERNANCE_ENABLED: String(setup.governance),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_MINUTE: HUGE,
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_DAY: HUGE,
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MONTHLY_BUDGET: HUGE,
    MCP_SERVER_LEDGER_ENABLED: String(setup.ledger.driver !== 'off'),
  };
  if (setup.ledger.driver === 'sqlite') {
    env.MCP_SERVER_LEDGER_DRIVER = 'sqlite';
    env.MCP_SERVER_LEDGER_SQLITE_PATH = setup.ledger.path;
  } else if (setup.ledger.driver === 'postgres') {
    env.MCP_SERVER_LEDGER_DRIVER = 'postgres';
    env.MCP_SERVER_LEDGER_POSTGRES_URL = setup.ledger.url;
  } else {
    // Never the repository's ./data/ledger.db, even though nothing is recorded.
    env.MCP_SERVER_LEDGER_SQLITE_PATH = join(setup.scratch, 'unused-ledger.db');
  }
  if (setup.adminToken !== undefined) env.MCP_SERVER_ADMIN_TOKEN = setup.adminToken;
  return { ...env, ...setup.extraEnv };
}
