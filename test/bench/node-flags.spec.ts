import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOptions } from '../../bench/lib/args';
import { childEnv } from '../../bench/lib/child-env';
import { finalStageEnv } from '../../bench/lib/dockerfile-env';
import { dockerfileNodeFlags, joinNodeOptions, splitNodeOptions } from '../../bench/lib/node-flags';

/** Every benchmarked server runs with the Dockerfile's NODE_OPTIONS: the bench must read them as Docker would. */
describe('bench node flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-bench-flags-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function dockerfile(text: string): string {
    const path = join(dir, `Dockerfile.${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, text);
    return path;
  }

  it('reads the repository Dockerfile', () => {
    expect(dockerfileNodeFlags().length).toBeGreaterThan(0);
  });

  it('reads several flags from a continued ENV block of the final stage', () => {
    const path = dockerfile(
      [
        'FROM node:20 AS build',
        'ENV NODE_OPTIONS="--max-old-space-size=4096"',
        'FROM node:20-slim AS runtime',
        'ENV NODE_ENV=production \\',
        '    # a comment line inside the continuation',
        '    NODE_OPTIONS="--max-semi-space-size=32 --no-allocation-site-pretenuring" \\',
        '    A=1',
        'CMD ["node", "main.js"]',
      ].join('\n'),
    );
    expect(dockerfileNodeFlags(path)).toEqual([
      '--max-semi-space-size=32',
      '--no-allocation-site-pretenuring',
    ]);
  });

  it('reads the legacy form, single quotes, escapes and a stage built on another', () => {
    expect(finalStageEnv('FROM a\nENV NODE_OPTIONS --x --y\n').get('NODE_OPTIONS')).toBe('--x --y');
    expect(finalStageEnv("FROM a\nENV B='x y' C=p\\ q\n")).toEqual(
      new Map([
        ['B', 'x y'],
        ['C', 'p q'],
      ]),
    );
    expect(
      finalStageEnv('FROM a AS base\nENV NODE_OPTIONS=--z\nFROM base\nENV B=1\n').get(
        'NODE_OPTIONS',
      ),
    ).toBe('--z');
    expect(finalStageEnv('# escape=`\nFROM a\nENV A=1 `\n  B=2\n').get('B')).toBe('2');
  });

  it('fails clearly when the final stage sets no NODE_OPTIONS', () => {
    const path = dockerfile('FROM a\nENV NODE_OPTIONS=--x\nFROM b\nENV A=1\n');
    expect(() => dockerfileNodeFlags(path)).toThrow(/sets no NODE_OPTIONS/);
  });

  it('splits NODE_OPTIONS as node does, and joins back', () => {
    const flags = splitNodeOptions('--a  --b="x y" "--c=\\"q\\""');
    expect(flags).toEqual(['--a', '--b=x y', '--c="q"']);
    expect(splitNodeOptions(joinNodeOptions(flags))).toEqual(flags);
    expect(splitNodeOptions('')).toEqual([]);
  });

  it('takes --node-flags as given, with a leading dash or empty', () => {
    expect(parseOptions(['--only', 'http', '--node-flags', '--a --b']).nodeFlags).toEqual([
      '--a',
      '--b',
    ]);
    const none = parseOptions(['--only', 'http', '--node-flags', '']);
    expect(none.nodeFlags).toEqual([]);
    expect(none.nodeFlagsSource).toBe('--node-flags');
    expect(parseOptions(['--only', 'http']).nodeFlagsSource).toBe('Dockerfile');
  });

  it('keeps MCP_* and NODE_OPTIONS of the bench environment from its children', () => {
    const saved = { port: process.env.MCP_SERVER_HTTP_PORT, options: process.env.NODE_OPTIONS };
    process.env.MCP_SERVER_HTTP_PORT = '1';
    process.env.NODE_OPTIONS = '--trace-warnings';
    try {
      const env = childEnv({ EXTRA: 'x' });
      expect(Object.keys(env).filter((key) => key.startsWith('MCP_'))).toEqual([]);
      expect(env.NODE_OPTIONS).toBeUndefined();
      expect(env.EXTRA).toBe('x');
    } finally {
      restore('MCP_SERVER_HTTP_PORT', saved.port);
      restore('NODE_OPTIONS', saved.options);
    }
  });
});

function restore(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}
