import { dirname, join } from 'node:path';
import type { UpstreamBudgets, UpstreamRecord } from '../../src/upstreams/upstream-record';
import { compiledEchoUpstreamPath } from './compiled-echo-upstream';
import { REPO_ROOT } from './stdio-process';
import { upstreamRecord } from './upstream-records';

/** The fixture compiled to JavaScript with its neighbours: a child starts with bare `node`, in about a second. */
function launch() {
  const entry = join(dirname(compiledEchoUpstreamPath()), 'task-upstream.js');
  // The compiled file lives in a temp dir: the SDK and zod resolve from the repo's node_modules.
  return {
    command: process.execPath,
    args: [entry],
    env: { NODE_PATH: join(REPO_ROOT, 'node_modules') },
    cwd: REPO_ROOT,
  };
}

/** The task fixture (test/fixtures/upstreams/task-upstream.ts) over stdio, for the pool's tests. */
export function taskUpstream(budgets: Partial<UpstreamBudgets> = {}): UpstreamRecord {
  return upstreamRecord(
    'tasks',
    { transport: 'stdio', stdio: { ...launch(), env_from: [] } },
    budgets,
  );
}

/** A registry file body for the task fixture over stdio. */
export function taskUpstreamFile(
  serverId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    version: 1,
    server_id: serverId,
    transport: 'stdio',
    stdio: launch(),
    allowed_tools: ['*'],
    ...extra,
  };
}
