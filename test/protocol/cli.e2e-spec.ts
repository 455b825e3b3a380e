/**
 * The built command line (`node dist/cli/main.js`), spawned as an operator
 * would run it: config validation, version and help, list commands, and
 * `start --transport http` from first log line to SIGTERM.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { waitUntil } from '../support/rpc-adapter';
import { CLI_ENTRY, REPO_ROOT } from '../support/stdio-process';

interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** A clean environment: no MCP_SERVER_* from the developer's shell leaks into a test. */
function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', ...extra };
}

/**
 * Commands run in a scratch directory of their own, as an operator's would: the
 * repository's config file and data files (shared with every other process
 * started there) do not leak in; files are named by absolute path.
 */
let workDir: string;

const LOADED_MARK = '\nLOADED MODULES ';
/** Runs the CLI as `node -e` so that, on exit, the files it loaded are printed to stderr. */
const LOADED_MODULES_PRELUDE = [
  '-e',
  `process.argv.splice(1, 0, ${JSON.stringify(CLI_ENTRY)});` +
    `process.on('exit', () => process.stderr.write(${JSON.stringify(LOADED_MARK)} + JSON.stringify(Object.keys(require.cache))));` +
    `require(${JSON.stringify(CLI_ENTRY)});`,
];

function runCli(
  args: string[],
  env: Record<string, string> = {},
  entry: string[] = [CLI_ENTRY],
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd: workDir,
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`owlclaw ${args.join(' ')} did not finish:\n${stderr}`));
    }, 60_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('owlclaw mcp-server CLI', () => {
  let dir: string;
  let badFile: string;
  let goodFile: string;
  let removedKeyFile: string;
  let cliQuotaFile: string;
  /** Every one-shot command, run concurrently once: each spawn pays the CLI's start-up. */
  let ran: Record<string, CliResult>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-cli-'));
    workDir = dir;
    badFile = join(dir, 'bad.yaml');
    writeFileSync(badFile, 'mcp_server:\n  http:\n    port: 99999\n');
    removedKeyFile = join(dir, 'log-output.yaml');
    writeFileSync(removedKeyFile, 'mcp_server:\n  logging:\n    output: stderr\n');
    goodFile = join(dir, 'good.yaml');
    writeFileSync(
      goodFile,
      'mcp_server:\n  transport: http\n  http:\n    port: 9099\n    host: "127.0.0.1"\n',
    );
    // The CLI lists as the client `cli`: its own quota is what LIMITS shows.
    cliQuotaFile = join(dir, 'cli-quota.yaml');
    writeFileSync(
      cliQuotaFile,
      'mcp_server:\n  governance:\n    clients:\n      cli:\n        quota: { max_calls_per_minute: 7 }\n',
    );
    const commands: Record<string, [string[], Record<string, string>?]> = {
      invalid: [['mcp-server', 'config', 'validate', '--config', badFile]],
      valid: [['mcp-server', 'config', 'validate', '--config', goodFile]],
      removedKey: [['mcp-server', 'config', 'validate', '--config', removedKeyFile]],
      removedKeyStart: [['mcp-server', 'start', '--config', removedKeyFile]],
      version: [['--version']],
      versionShort: [['-v']],
      help: [['--help']],
      serverHelp: [['mcp-server', '--help']],
      tools: [['mcp-server', 'tools', 'list']],
      toolsForCli: [['mcp-server', 'tools', 'list', '--config', cliQuotaFile]],
      resources: [
        ['mcp-server', 'resources', 'list'],
        { MCP_SERVER_SKILLS_DIR: join(REPO_ROOT, 'capabilities') },
      ],
      badEnv: [['mcp-server', 'start', '--transport', 'http'], { MCP_SERVER_HTTP_PORT: 'abc' }],
    };
    // A few at a time: enough to overlap start-up, not so many that each one starves.
    ran = {};
    const queue = Object.entries(commands);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, [args, env]] = next;
        ran[key] = await runCli(args, env);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
  }, 120_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('config validate rejects http.port 99999, naming mcp_server.http.port', () => {
    const { invalid } = ran;
    expect(invalid.code).not.toBe(0);
    expect(invalid.code).not.toBeNull();
    expect(invalid.stderr).toContain('mcp_server.http.port');
    expect(invalid.stderr).toContain('65535');
    expect(invalid.stderr).toContain(badFile);
  });

  it('config validate refuses logging.output, saying logs go to stderr, and start refuses it too', () => {
    const { removedKey, removedKeyStart } = ran;
    expect(removedKey.code).toBe(1);
    expect(removedKey.stdout).not.toContain('Configuration is valid');
    expect(removedKey.stderr).toContain('Configuration is invalid');
    expect(removedKey.stderr).toContain(
      `mcp_server.logging.output: is no longer a configuration key: logs always go to stderr (in stdio mode stdout carries the MCP protocol); redirect stderr to send them elsewhere (from ${removedKeyFile})`,
    );
    expect(removedKeyStart.code).toBe(2);
    expect(removedKeyStart.stdout).toBe('');
    expect(removedKeyStart.stderr).toContain('mcp_server.logging.output: is no longer');
  });

  it('config validate accepts a valid file with exit 0 and prints its summary', () => {
    const { valid } = ran;
    expect(valid.code).toBe(0);
    expect(valid.stdout).toContain(`Configuration is valid (${goodFile})`);
    const summary = JSON.parse(valid.stdout.slice(valid.stdout.indexOf('{'))) as Record<
      string,
      unknown
    >;
    expect(summary).toMatchObject({ transport: 'http', listen: '127.0.0.1:9099' });
  });

  it('--version prints the version of package.json', () => {
    expect(ran.version.code).toBe(0);
    expect(ran.version.stdout.trim()).toBe(PACKAGE_VERSION);
    expect(ran.versionShort.stdout.trim()).toBe(PACKAGE_VERSION);
  });

  it('--help lists start, config, tools, resources and keys', () => {
    expect(ran.help.code).toBe(0);
    expect(ran.help.stdout).toMatch(/^\s+mcp-server\b/m);
    expect(ran.serverHelp.code).toBe(0);
    for (const command of ['start', 'config', 'tools', 'resources', 'keys']) {
      expect(ran.serverHelp.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('--version, --help and keys create load only the command line, not Nest or the gateway', async () => {
    for (const args of [
      ['--version'],
      ['--help'],
      ['mcp-server', 'upstreams', '--help'],
      ['mcp-server', 'keys', 'create'],
    ]) {
      const { code, stderr } = await runCli(['--', ...args], {}, LOADED_MODULES_PRELUDE);
      expect(code).toBe(0);
      const loaded = JSON.parse(
        stderr.slice(stderr.lastIndexOf(LOADED_MARK) + LOADED_MARK.length),
      ) as string[];
      expect(loaded.some((file) => file.endsWith('cli/main.js'))).toBe(true);
      expect(
        loaded.filter((file) =>
          /[\\/](@nestjs|@modelcontextprotocol)[\\/]|app\.module\.js$/.test(file),
        ),
      ).toEqual([]);
    }
  });

  it('tools list prints the demo pack as a table', () => {
    expect(ran.tools.code).toBe(0);
    expect(ran.tools.stdout).toMatch(/^NAME\s+DESCRIPTION\s+COST\s+LIMITS$/m);
    for (const tool of [
      'inventory_search',
      'inventory_check_stock',
      'inventory_recount',
      'orders_place',
      'orders_get',
    ]) {
      expect(ran.tools.stdout).toMatch(new RegExp(`^${tool}\\s`, 'm'));
    }
    expect(ran.tools.stdout).toMatch(/^6 tool\(s\)$/m);
  });

  it("tools list prints each tool's declared cost and the listing client's limits", () => {
    // Demo pack costs and the default quota (60 a minute, 1000 a day).
    expect(ran.tools.stdout).toMatch(/^orders_place\s.*\s1\s+60\/min 1000\/day$/m);
    expect(ran.tools.stdout).toMatch(/^inventory_search\s.*\s0\.1\s+60\/min 1000\/day$/m);
    expect(ran.tools.stdout).toMatch(/^inventory_reorder_report\s.*\s2\.5\s+60\/min 1000\/day$/m);
    expect(ran.toolsForCli.code).toBe(0);
    expect(ran.toolsForCli.stdout).toMatch(/^orders_place\s.*\s1\s+7\/min 1000\/day$/m);
  });

  it('resources list prints the skills catalog as a table', () => {
    expect(ran.resources.code).toBe(0);
    expect(ran.resources.stdout).toMatch(/^URI\s+NAME\s+DESCRIPTION\s+SIZE$/m);
    expect(ran.resources.stdout).toContain('skill://orders/place-order');
    expect(ran.resources.stdout).toContain('skill://inventory/reorder-policy');
    expect(ran.resources.stdout).toMatch(/^4 resource\(s\)$/m);
  });

  it('start with MCP_SERVER_HTTP_PORT=abc exits non-zero naming the variable', () => {
    const { badEnv } = ran;
    expect(badEnv.code).not.toBe(0);
    expect(badEnv.code).not.toBeNull();
    expect(badEnv.stderr).toContain('MCP_SERVER_HTTP_PORT');
    expect(badEnv.stderr).toContain('mcp_server.http.port');
  });

  describe('start --transport http --port 0 --host 127.0.0.1', () => {
    let child: ChildProcess | undefined;

    afterEach(() => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });

    it('logs a listening line with the port, serves, and stops on SIGTERM with exit 0 within 5 s', async () => {
      const server = spawn(
        process.execPath,
        [
          '--heap-growing-percent=100',
          CLI_ENTRY,
          'mcp-server',
          'start',
          '--transport',
          'http',
          '--port',
          '0',
          '--host',
          '127.0.0.1',
        ],
        {
          cwd: workDir,
          // The drain delay is a load balancer's concern (graceful-drain.e2e-spec.ts).
          env: cliEnv({ MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '0' }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child = server;
      let stderr = '';
      let stdout = '';
      server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
        (resolve) => server.once('exit', (code, signal) => resolve({ code, signal })),
      );

      const logEntries = () =>
        stderr
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      const listening = () => logEntries().find((entry) => entry.msg === 'listening');
      await waitUntil(
        () => listening() !== undefined || server.exitCode !== null,
        60_000,
        () => stderr,
      );
      const entry = listening();
      if (!entry) {
        throw new Error(`exited with ${server.exitCode} before listening:\n${stderr.slice(-3000)}`);
      }
      expect(entry).toEqual(
        expect.objectContaining({
          msg: 'listening',
          port: expect.any(Number),
          url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
        }),
      );
      // The node flags it was started with are logged (the README and Dockerfile give V8 flags).
      const starting = logEntries().find((line) => line.msg === 'starting OwlClaw MCP gateway');
      expect(starting?.nodeFlags).toEqual(['--heap-growing-percent=100']);
      // No MCP_SERVER_ADMIN_TOKEN: the /admin routes are mapped, and the log says they are off.
      expect(logEntries().find((line) => line.msg === 'admin API off')).toBeDefined();
      const port = entry?.port as number;
      expect(port).toBeGreaterThan(0);
      expect(entry?.url).toBe(`http://127.0.0.1:${port}/mcp`);
      // Every stderr line is a JSON log line; stdout stays empty.
      for (const line of stderr.split('\n').filter((l) => l.trim() !== '')) {
        expect(() => JSON.parse(line) as unknown).not.toThrow();
      }
      expect(stdout).toBe('');

      // Connection: close, so no idle keep-alive connection holds the stop for its timeout.
      const health = await request(`http://127.0.0.1:${port}`)
        .get('/health')
        .set('Connection', 'close');
      expect(health.status).toBe(200);

      const started = Date.now();
      server.kill('SIGTERM');
      const exit = await exited;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(5000);
    }, 90_000);
  });
});
