import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpstreamRecord } from '../../src/upstreams/upstream-record';
import { REPO_ROOT } from './stdio-process';
import { upstreamRecord } from './upstream-records';

const CRASH_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'crash-upstream.mjs');

/** A copy of the crash fixture in a directory of its own: its path marks its processes in `ps`. */
export function markedCrashUpstreamCopy(): string {
  const entry = join(mkdtempSync(join(tmpdir(), 'owlclaw-crash-mark-')), 'crash-upstream.mjs');
  copyFileSync(CRASH_UPSTREAM, entry);
  return entry;
}

/**
 * A stdio record running the plain-Node crash fixture (test/fixtures/upstreams/crash-upstream.mjs)
 * with bare `node`: it imports nothing but Node's own modules, so it runs from any directory.
 */
export function crashUpstream(serverId = 'crash', entry = CRASH_UPSTREAM): UpstreamRecord {
  return upstreamRecord(serverId, {
    transport: 'stdio',
    stdio: { command: process.execPath, args: [entry], env: {}, env_from: [], cwd: REPO_ROOT },
  });
}
