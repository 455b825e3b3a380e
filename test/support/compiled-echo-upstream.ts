import { transformFileSync } from '@swc/core';
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { UpstreamRecord } from '../../src/upstreams/upstream-record';
import { REPO_ROOT } from './stdio-process';
import { upstreamRecord } from './upstream-records';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'upstreams');
let compiled: string | undefined;

/**
 * The fixture upstream compiled once to plain JavaScript, so a child starts
 * with bare `node` (no TypeScript hook): cheap enough for a thousand restarts.
 */
export function compiledEchoUpstreamPath(): string {
  if (compiled) return compiled;
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-echo-'));
  // Every fixture file, since echo-upstream imports its neighbours (relay-tools).
  for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.ts'))) {
    const { code } = transformFileSync(join(FIXTURES, file), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    writeFileSync(join(dir, file.replace(/\.ts$/, '.js')), code);
  }
  compiled = join(dir, 'echo-upstream.js');
  return compiled;
}

/** A copy of the compiled fixture in a directory of its own: its path marks its processes in `ps`. */
export function markedEchoUpstreamCopy(): string {
  const source = dirname(compiledEchoUpstreamPath());
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-echo-mark-'));
  for (const file of readdirSync(source)) copyFileSync(join(source, file), join(dir, file));
  return join(dir, 'echo-upstream.js');
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

/** Writes `<server_id>.json` into a registry directory: a file-format record running the compiled fixture. */
export function writeEchoRegistryFile(dir: string, fields: Record<string, unknown> = {}): void {
  const record = {
    version: 1,
    server_id: 'echo',
    transport: 'stdio',
    stdio: {
      command: process.execPath,
      args: [compiledEchoUpstreamPath()],
      env: { NODE_PATH: join(REPO_ROOT, 'node_modules') },
    },
    allowed_tools: ['*'],
    ...fields,
  };
  writeFileSync(join(dir, `${record.server_id}.json`), JSON.stringify(record));
}
