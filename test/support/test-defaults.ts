import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Settings every test gateway starts with unless a test says otherwise:
 * its own ledger file (gateways never share ./data/ledger.db, and the repo
 * stays clean) and quotas far above what a suite sends, so only the
 * governance suites, which set their own limits, ever see a denial.
 */
export const GENEROUS_QUOTA = {
  monthly_budget: 1_000_000_000,
  max_calls_per_minute: 1_000_000,
  max_calls_per_day: 100_000_000,
  max_cost_per_call: 1_000_000,
};

export function tempLedgerPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'owlclaw-ledger-')), 'ledger.db');
}

/** The same defaults as MCP_SERVER_* variables, for spawned gateways. */
export function testGatewayEnv(): Record<string, string> {
  return {
    MCP_SERVER_LEDGER_SQLITE_PATH: tempLedgerPath(),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MONTHLY_BUDGET: String(GENEROUS_QUOTA.monthly_budget),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_MINUTE: String(
      GENEROUS_QUOTA.max_calls_per_minute,
    ),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_DAY: String(GENEROUS_QUOTA.max_calls_per_day),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_COST_PER_CALL: String(GENEROUS_QUOTA.max_cost_per_call),
  };
}
