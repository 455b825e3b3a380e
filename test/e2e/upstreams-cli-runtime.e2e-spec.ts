import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { REPO_ROOT } from '../support/stdio-process';
import { TYPESCRIPT_LOADER } from '../support/typescript-loader';

/**
 * `upstreams validate --dry-run` against a running gateway's admin API, and
 * `upstreams test <id>` connecting to a real upstream, run as an operator
 * would (the CLI in its own process).
 */

const CLI_SOURCE = join(REPO_ROOT, 'src', 'cli', 'main.ts');
const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
const ADMIN_TOKEN = 'upstreams-cli-runtime-token-0123456789';
const OLD_SECRET = 'cli-old-secret-value';
const NEW_SECRET = 'cli-new-secret-value';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let workDir: string;
let gateway: HttpGatewayHandle;
const savedToken = process.env.MCP_SERVER_ADMIN_TOKEN;

function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', TYPESCRIPT_LOADER, CLI_SOURCE, 'mcp-server', 'upstreams', ...args],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`upstreams ${args.join(' ')} did not finish:\n${stderr}`));
    }, 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function echoFile(serverId: string, allowed: string[], secret: string): string {
  return JSON.stringify({
    version: 1,
    server_id: serverId,
    transport: 'stdio',
    stdio: {
      command: process.execPath,
      args: ['-r', TYPESCRIPT_LOADER, ECHO_UPSTREAM],
      cwd: REPO_ROOT,
      env: { SECRET_TOKEN: secret },
    },
    allowed_tools: allowed,
  });
}

function writeDir(name: string, files: Record<string, string>): string {
  const dir = join(workDir, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

function writeConfigFile(registryDir: string): string {
  const path = join(workDir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, stringify({ mcp_server: { upstreams: { registry_dir: registryDir } } }));
  return path;
}

beforeAll(async () => {
  process.env.MCP_SERVER_ADMIN_TOKEN = ADMIN_TOKEN;
  workDir = mkdtempSync(join(tmpdir(), 'owlclaw-upstreams-cli-runtime-'));
  const running = writeDir('running', {
    'alpha.json': echoFile('alpha', ['echo'], OLD_SECRET),
    'gone.json': echoFile('gone', ['echo'], OLD_SECRET),
    'same.json': echoFile('same', ['echo'], OLD_SECRET),
  });
  gateway = await startHttpGateway({ config: { upstreams: { registry_dir: running } } });
  await gateway.app.get(UpstreamToolsPublisher).settled();
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  if (savedToken === undefined) delete process.env.MCP_SERVER_ADMIN_TOKEN;
  else process.env.MCP_SERVER_ADMIN_TOKEN = savedToken;
});

describe('owlclaw mcp-server upstreams validate --dry-run', () => {
  it('shows added, removed and changed servers against the running gateway, field by field, secrets masked', async () => {
    const edited = writeDir('edited', {
      'alpha.json': echoFile('alpha', ['echo', 'slow'], OLD_SECRET),
      'same.json': echoFile('same', ['echo'], NEW_SECRET),
      'beta.json': echoFile('beta', ['echo'], OLD_SECRET),
    });
    const result = await runCli(
      ['validate', '--config', writeConfigFile(edited), '--dry-run', '--url', gateway.baseUrl],
      { MCP_SERVER_ADMIN_TOKEN: ADMIN_TOKEN },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('+ beta (added)');
    expect(lines).toContain('- gone (removed)');
    expect(lines).toContain('~ alpha (changed)');
    expect(lines).toContain('    allowed_tools: ["echo"] -> ["echo","slow"]');
    expect(lines).toContain('~ same (changed)');
    expect(lines).toContain('    (a secret value): "***" -> "***"');
    expect(result.stdout).toContain('1 added, 1 removed, 2 changed');
    expect(result.stdout).not.toContain(OLD_SECRET);
    expect(result.stdout).not.toContain(NEW_SECRET);
  }, 60_000);

  it('exits 2 when the running gateway refuses the token', async () => {
    const result = await runCli(
      [
        'validate',
        '--config',
        writeConfigFile(join(workDir, 'running')),
        '--dry-run',
        '--url',
        gateway.baseUrl,
      ],
      { MCP_SERVER_ADMIN_TOKEN: 'wrong-token-0123456789abcdef0123456789' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('answered 401');
  }, 60_000);

  it('without a token compares --dir with the configured directory', async () => {
    const edited = writeDir('edited-2', { 'alpha.json': echoFile('alpha', ['echo'], OLD_SECRET) });
    const result = await runCli([
      'validate',
      '--config',
      writeConfigFile(join(workDir, 'running')),
      '--dir',
      edited,
      '--dry-run',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('- gone (removed)');
    expect(result.stdout).toContain('- same (removed)');
    expect(result.stdout).toContain('0 added, 2 removed, 0 changed');
  }, 60_000);
});

describe('owlclaw mcp-server upstreams test <id>', () => {
  it('connects to the server and prints its tools/list summary', async () => {
    const result = await runCli([
      'test',
      'alpha',
      '--config',
      writeConfigFile(join(workDir, 'running')),
    ]);
    expect(result.code).toBe(0);
    const summary = /alpha: answered in \d+ ms; (\d+) tool\(s\), 1 exposed/.exec(result.stdout);
    expect(summary).not.toBeNull();
    // The count is the fixture's whole list, one table row per tool.
    const rows = result.stdout.match(/^\w+\s+(yes|no)$/gm) ?? [];
    expect(Number(summary?.[1])).toBe(rows.length);
    expect(result.stdout).toMatch(/^echo\s+yes$/m);
    expect(result.stdout).toMatch(/^flood\s+no$/m);
  }, 60_000);

  it('exits non-zero when the server cannot be reached or is unknown', async () => {
    const broken = writeDir('broken', {
      'broken.json': JSON.stringify({
        version: 1,
        server_id: 'broken',
        transport: 'stdio',
        stdio: { command: join(workDir, 'no-such-program') },
      }),
    });
    const failed = await runCli(['test', 'broken', '--config', writeConfigFile(broken)]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('broken: failed after');
    const unknown = await runCli(['test', 'nobody', '--config', writeConfigFile(broken)]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('nobody: no such server');
  }, 60_000);
});
