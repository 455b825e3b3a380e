import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOptions } from '../../bench/lib/args';
import { childEnv } from '../../bench/lib/child-env';
import { dockerfileNodeFlags, nodeFlagsOf } from '../../bench/lib/node-flags';
import { REPO_ROOT } from '../../bench/lib/paths';

/**
 * Every benchmarked server runs with the node flags of the Dockerfile's CMD; the README's stdio
 * snippet and `npm start` must start the gateway with the same ones, or the bench measures a
 * gateway nobody runs.
 */
describe('bench node flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-bench-flags-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function dockerfile(text: string): string {
    const path = join(dir, `Dockerfile.${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, text);
    return path;
  }

  it("reads the flags of the Dockerfile's last CMD", () => {
    const path = dockerfile(
      [
        'FROM node:20 AS build',
        'CMD ["node", "--max-old-space-size=4096", "build.js"]',
        'FROM node:20-slim AS runtime',
        'CMD ["node", "--no-allocation-site-pretenuring", "--x=1", "dist/cli/main.js", "--port", "1"]',
      ].join('\n'),
    );
    expect(dockerfileNodeFlags(path)).toEqual(['--no-allocation-site-pretenuring', '--x=1']);
    expect(dockerfileNodeFlags(dockerfile('FROM a\nCMD ["node", "main.js"]\n'))).toEqual([]);
  });

  it('fails clearly without a node CMD in exec form', () => {
    expect(() => dockerfileNodeFlags(dockerfile('FROM a\nCMD node main.js\n'))).toThrow(
      /no CMD \["node"/,
    );
  });

  it('finds the same flags in the Dockerfile, the README snippet and npm start', () => {
    const flags = dockerfileNodeFlags();
    expect(flags.length).toBeGreaterThan(0);
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const snippet = /```json\n(\{\n\s*"mcpServers"[\s\S]*?)```/.exec(readme)?.[1];
    const server = (
      JSON.parse(snippet ?? '{}') as { mcpServers?: Record<string, { args: string[] }> }
    ).mcpServers?.owlclaw;
    expect(nodeFlagsOf(server?.args ?? [])).toEqual(flags);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const [command, ...args] = pkg.scripts.start.split(' ');
    expect(command).toBe('node');
    expect(nodeFlagsOf(args)).toEqual(flags);
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

  it('keeps MCP_*, OTEL_* and NODE_OPTIONS of the bench environment from its children', () => {
    const saved = {
      port: process.env.MCP_SERVER_HTTP_PORT,
      options: process.env.NODE_OPTIONS,
      otel: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
    };
    process.env.MCP_SERVER_HTTP_PORT = '1';
    process.env.NODE_OPTIONS = '--trace-warnings';
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://collector:4318';
    try {
      const env = childEnv({ EXTRA: 'x' });
      expect(Object.keys(env).filter((key) => key.startsWith('MCP_'))).toEqual([]);
      expect(Object.keys(env).filter((key) => key.startsWith('OTEL_'))).toEqual([]);
      expect(env.NODE_OPTIONS).toBeUndefined();
      expect(env.EXTRA).toBe('x');
    } finally {
      restore('MCP_SERVER_HTTP_PORT', saved.port);
      restore('NODE_OPTIONS', saved.options);
      restore('OTEL_EXPORTER_OTLP_ENDPOINT', saved.otel);
    }
  });
});

function restore(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}
