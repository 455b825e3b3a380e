import { join } from 'node:path';
import { REPO_ROOT } from './stdio-process';
import { TYPESCRIPT_LOADER } from './typescript-loader';

const RELAY_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'relay-upstream.ts');

/** A registry file body for the relay fixture (test/fixtures/upstreams/relay-upstream.ts) over stdio. */
export function relayUpstreamFile(
  serverId: string,
  extra: Record<string, unknown> = {},
  env: Record<string, string> = {},
): Record<string, unknown> {
  return {
    version: 1,
    server_id: serverId,
    transport: 'stdio',
    stdio: {
      command: process.execPath,
      args: ['-r', TYPESCRIPT_LOADER, RELAY_UPSTREAM],
      cwd: REPO_ROOT,
      env,
    },
    allowed_tools: ['*'],
    ...extra,
  };
}
