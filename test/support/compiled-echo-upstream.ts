import { transformFileSync } from '@swc/core';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UpstreamRecord } from '../../src/upstreams/upstream-record';
import { REPO_ROOT } from './stdio-process';
import { upstreamRecord } from './upstream-records';

const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
let compiled: string | undefined;

/**
 * The fixture upstream compiled once to plain JavaScript, so a child starts
 * with bare `node` (no TypeScript hook): cheap enough for a thousand restarts.
 */
export function compiledEchoUpstreamPath(): string {
  if (compiled) return compiled;
  const { code } = transformFileSync(ECHO_UPSTREAM, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-echo-'));
  compiled = join(dir, 'echo-upstream.js');
  writeFileSync(compiled, code);
  return compiled;
}

/** A copy of the compiled fixture in a directory of its own: its path marks its processes in `ps`. */
export function markedEchoUpstreamCopy(): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'owlclaw-echo-mark-')), 'echo-upstream.js');
  copyFileSync(compiledEchoUpstreamPath(), copy);
  return copy;
}

/** A stdio record running the compiled fixture; `shellWrapped` nests it under `sh -c` (npx-style). */
export function fastEchoUpstream(
  serverId = 'echo',
  extra: Partial<UpstreamRecord> = {},
  options: { shellWrapped?: boolean; entry?: string } = {},
): UpstreamRecord {
  const entry = options.entry ?? compiledEchoUpstreamPath();
  const launch = options.shellWrapped
    ? { command: '/bin/sh', args: ['-c', `"${process.execPath}" "${entry}"; exit $?`] }
    : { command: process.execPath, args: [entry] };
  return {
    ...upstreamRecord(serverId, {
      transport: 'stdio',
      stdio: {
        ...launch,
        // The compiled file lives in a temp dir: the SDK resolves from the repo's node_modules.
        env: { NODE_PATH: join(REPO_ROOT, 'node_modules') },
        env_from: [],
        cwd: REPO_ROOT,
      },
    }),
    ...extra,
  };
}
