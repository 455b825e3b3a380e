/**
 * `owlclaw mcp-server upstreams list | validate`, spawned from the built CLI
 * as an operator runs them, on registry directories of real files.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_ENTRY } from '../support/stdio-process';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const SECRET = 'upstream-cli-secret-value';

let workDir: string;

/** A clean environment (no MCP_SERVER_* from the developer's shell), run in the scratch directory. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'mcp-server', 'upstreams', ...args], {
      cwd: workDir,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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

function writeRegistry(name: string, files: Record<string, string>): string {
  const dir = join(workDir, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

const GOOD = [
  'version: 1',
  'server_id: fs',
  'transport: stdio',
  'stdio:',
  '  command: node',
  '  env: { TOKEN: "${ENV:FS_TOKEN}" }',
  'allowed_tools: ["read_*"]',
  '',
].join('\n');

describe('owlclaw mcp-server upstreams', () => {
  let ran: Record<string, CliResult>;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'owlclaw-upstreams-cli-'));
    const good = writeRegistry('good', { 'fs.yaml': GOOD });
    const bad = writeRegistry('bad', {
      'fs.yaml': GOOD,
      'broken.yaml': GOOD.replace('server_id: fs', 'server_id: Broken'),
      'typo.json': JSON.stringify({
        version: 1,
        server_id: 'typo',
        transport: 'stdio',
        stdio: { command: 'x' },
        colour: 1,
      }),
    });
    // A config file names its registry relative to itself and relaxes strictness.
    writeRegistry('etc/mcp.d', {
      'typo.json': JSON.stringify({
        version: 1,
        server_id: 'typo',
        transport: 'stdio',
        stdio: { command: 'x' },
        colour: 1,
      }),
    });
    const lenient = join(workDir, 'etc', 'gateway.yaml');
    writeFileSync(lenient, 'mcp_server:\n  upstreams: { registry_dir: mcp.d, strict: false }\n');
    const listing = join(workDir, 'listing.yaml');
    writeFileSync(listing, `mcp_server:\n  upstreams: { registry_dir: ${bad} }\n`);

    const commands: Record<string, [string[], Record<string, string>?]> = {
      validGood: [['validate', '--dir', good], { FS_TOKEN: SECRET }],
      validBad: [['validate', '--dir', bad], { FS_TOKEN: SECRET }],
      unsetEnv: [['validate', '--dir', good]],
      missingDir: [['validate', '--dir', join(workDir, 'absent')]],
      lenient: [['validate', '--config', lenient]],
      listJson: [['list', '--json', '--config', listing], { FS_TOKEN: SECRET }],
      listTable: [['list', '--config', listing], { FS_TOKEN: SECRET }],
    };
    ran = {};
    const queue = Object.entries(commands);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, [args, env]] = next;
        ran[key] = await runCli(args, env);
      }
    };
    await Promise.all([worker(), worker()]);
  }, 120_000);

  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('validate exits 0 when every file loads', () => {
    expect(ran.validGood.code).toBe(0);
    expect(ran.validGood.stdout).toContain('1 server(s) loaded, 0 rejected');
  });

  it('validate exits 1 and prints each problem with its file and key', () => {
    const { code, stderr } = ran.validBad;
    expect(code).toBe(1);
    expect(stderr).toContain('broken.yaml: server_id: must be 1-32 characters');
    expect(stderr).toContain('typo.json: colour: is not a known registry key');
    expect(ran.validBad.stdout).toContain('1 server(s) loaded, 2 rejected');
  });

  it('validate exits 1 when a reference names an unset variable', () => {
    expect(ran.unsetEnv.code).toBe(1);
    expect(ran.unsetEnv.stderr).toContain(
      'fs.yaml: stdio.env.TOKEN: ${ENV:FS_TOKEN} is not set (no default given)',
    );
  });

  it('validate exits 1 for a --dir that does not exist', () => {
    expect(ran.missingDir.code).toBe(1);
    expect(ran.missingDir.stderr).toContain('does not exist');
  });

  it('validate reads the configured directory and strictness; unknown keys then only warn', () => {
    expect(ran.lenient.code).toBe(0);
    expect(ran.lenient.stderr).toContain(
      'warning: typo.json: colour: is not a known registry key (ignored)',
    );
    expect(ran.lenient.stdout).toContain(join(workDir, 'etc', 'mcp.d'));
  });

  it('list --json prints the registry with secrets masked', () => {
    expect(ran.listJson.code).toBe(0);
    expect(ran.listJson.stdout).not.toContain(SECRET);
    const registry = JSON.parse(ran.listJson.stdout);
    expect(registry.servers).toEqual([
      expect.objectContaining({
        server_id: 'fs',
        stdio: expect.objectContaining({ env: { TOKEN: '***' } }),
      }),
    ]);
    expect(registry.rejected.map((r: { file: string }) => r.file)).toEqual([
      'broken.yaml',
      'typo.json',
    ]);
    expect(registry.revision).toMatch(/^[0-9a-f]{16}$/);
  });

  it('list prints a table of loaded and rejected files', () => {
    const { code, stdout } = ran.listTable;
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^SERVER\s+TRANSPORT\s+NAMESPACE\s+ALLOWED\s+REQUIRED\s+FILE\s+STATUS$/m,
    );
    expect(stdout).toMatch(/^fs\s+stdio\s+fs\s+1\s+no\s+fs\.yaml\s+loaded$/m);
    expect(stdout).toMatch(/^-\s+-\s+-\s+-\s+-\s+broken\.yaml\s+rejected: server_id: must be/m);
    expect(stdout).not.toContain(SECRET);
  });
});
