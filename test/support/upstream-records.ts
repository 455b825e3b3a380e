import { join } from 'node:path';
import type { UpstreamBudgets, UpstreamRecord } from '../../src/upstreams/upstream-record';
import { REPO_ROOT } from './stdio-process';
import { TYPESCRIPT_LOADER } from './typescript-loader';

const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
const EVERYTHING_ENTRY = join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

const DEFAULT_BUDGETS: UpstreamBudgets = {
  tool_timeout_ms: 10_000,
  max_concurrency: 8,
  max_tool_output_bytes: 1_048_576,
};

/** A registry record as the registry would load it, for the pool's tests. */
export function upstreamRecord(
  serverId: string,
  launch: Pick<UpstreamRecord, 'transport' | 'stdio' | 'http'>,
  budgets: Partial<UpstreamBudgets> = {},
): UpstreamRecord {
  return {
    version: 1,
    server_id: serverId,
    display_name: serverId,
    tool_namespace: serverId,
    allowed_tools: ['*'],
    denied_tools: [],
    approval_policy: { default: 'never', tools: {} },
    budgets: { ...DEFAULT_BUDGETS, ...budgets },
    cost: { default: 0, tools: {} },
    relay: { resources: false, prompts: false },
    required: false,
    warm: false,
    idle_timeout_seconds: 0,
    file: `${serverId}.yaml`,
    ...launch,
  };
}

/** The SDK fixture upstream (test/fixtures/upstreams/echo-upstream.ts) over stdio. */
export function echoUpstream(budgets: Partial<UpstreamBudgets> = {}): UpstreamRecord {
  return upstreamRecord(
    'echo',
    {
      transport: 'stdio',
      stdio: {
        command: process.execPath,
        args: ['-r', TYPESCRIPT_LOADER, ECHO_UPSTREAM],
        env: {},
        env_from: [],
        cwd: REPO_ROOT,
      },
    },
    budgets,
  );
}

/** `@modelcontextprotocol/server-everything` from npm over stdio. */
export function everythingUpstream(): UpstreamRecord {
  return upstreamRecord('everything', {
    transport: 'stdio',
    stdio: {
      command: process.execPath,
      args: [EVERYTHING_ENTRY, 'stdio'],
      env: {},
      env_from: [],
      cwd: REPO_ROOT,
    },
  });
}

/** `@modelcontextprotocol/server-everything` started as its own Streamable HTTP server. */
export const EVERYTHING_ENTRY_PATH = EVERYTHING_ENTRY;
