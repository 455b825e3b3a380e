/**
 * The five-command quick start at the top of docs/federation.md, run as it is
 * written: its registry file, its tools/list command, its tools/call request
 * (headers and body) and its ledger query are read from the page, so the page
 * cannot drift from what works. The gateway is the built CLI, started in a
 * scratch copy of the repository layout (config/mcp.d, node_modules, data);
 * only the port (0) and the registry directory (the scratch one) differ.
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_ENTRY, REPO_ROOT } from '../support/stdio-process';

const START_TIMEOUT_MS = 90_000;
const ADMIN_TOKEN = 'q'.repeat(64);

/** The `## Quick start` section of docs/federation.md, up to the next section. */
function quickStartSection(): string {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'federation.md'), 'utf8');
  const start = page.indexOf('\n## Quick start\n');
  if (start < 0) throw new Error('docs/federation.md has no "## Quick start" section');
  return page.slice(start + 1, page.indexOf('\n## ', start + 1));
}

/** The first capture of `pattern` in the section; fails naming the pattern when absent. */
function capture(section: string, pattern: RegExp): string {
  const match = pattern.exec(section);
  if (!match) throw new Error(`the quick start has nothing matching ${pattern}`);
  return match[1];
}

const section = quickStartSection();
const registryFile = capture(section, /cat > (\S+) <<'EOF'\n/);
const registryText = capture(section, /<<'EOF'\n([\s\S]*?\n)EOF\n/);
const listArgs = capture(section, /\nnpx owlclaw (mcp-server tools list)\n/).split(' ');
const callCommand = capture(section, /\n(curl -s http:\/\/127\.0\.0\.1:8080\/mcp [\s\S]*?)\n\n/);
const callHeaders = Object.fromEntries(
  [...callCommand.matchAll(/-H '([^:']+): ([^']+)'/g)].map((m) => [m[1], m[2]]),
);
const callBody = capture(callCommand, /-d '(\{.*\})'/);
const ledgerPath = capture(section, /'http:\/\/127\.0\.0\.1:8080(\/admin\/ledger\?[^']+)'/);

let root: string;
let env: Record<string, string>;
let gateway: ChildProcess;
let stderr = '';
let baseUrl: string;

/** Starts `dist/cli/main.js mcp-server start --transport http` (what `npm start` runs). */
async function startGateway(): Promise<string> {
  gateway = spawn(
    process.execPath,
    [CLI_ENTRY, 'mcp-server', 'start', '--transport', 'http', '--port', '0'],
    { cwd: root, env },
  );
  gateway.stdout!.resume();
  gateway.stderr!.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`gateway did not start:\n${stderr.slice(-3000)}`)),
      START_TIMEOUT_MS,
    );
    gateway.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /"msg":"listening"[^\n]*"port":(\d+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    gateway.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code}):\n${stderr.slice(-3000)}`));
    });
  });
  return `http://127.0.0.1:${port}`;
}

/** Step 2's `curl --retry ... /health/ready`: 200 once the required upstream serves. */
async function waitUntilReady(): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const res = await fetch(`${baseUrl}/health/ready`);
    if (res.status === 200) return;
    if (Date.now() > deadline) throw new Error(`never ready:\n${stderr.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  // The repository's layout in miniature: the record's `cwd: ../..` must land where node_modules is.
  root = mkdtempSync(join(tmpdir(), 'owlclaw-fed-quickstart-'));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, dirname(registryFile)), { recursive: true });
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, registryFile), registryText);
  env = {
    PATH: process.env.PATH ?? '',
    // What the shell gives `npm start` run at the repository root; the record reads it.
    PWD: root,
    MCP_SERVER_ADMIN_TOKEN: ADMIN_TOKEN,
    // Left unset, the directory is the installation's config/mcp.d: the repository's own.
    MCP_SERVER_UPSTREAMS_REGISTRY_DIR: join(root, 'config', 'mcp.d'),
    MCP_SERVER_LEDGER_SQLITE_PATH: join(root, 'data', 'ledger.db'),
    MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '0',
  };
  baseUrl = await startGateway();
  await waitUntilReady();
}, 2 * START_TIMEOUT_MS);

afterAll(async () => {
  if (gateway && gateway.exitCode === null && gateway.signalCode === null) {
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    const timer = setTimeout(() => gateway.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the federation quick start of docs/federation.md', () => {
  it('writes the registry file into config/mcp.d and the gateway connects to it', () => {
    expect(registryFile).toBe('config/mcp.d/memory.yaml');
    expect(stderr).toContain('"msg":"upstream connected","server_id":"memory"');
  });

  it(
    'lists the server tools under the memory__ namespace beside the gateway own',
    async () => {
      const { stdout } = await promisify(execFile)(process.execPath, [CLI_ENTRY, ...listArgs], {
        cwd: root,
        env,
        timeout: START_TIMEOUT_MS,
      });
      for (const name of [
        'inventory_search',
        'memory__create_entities',
        'memory__read_graph',
        'memory__search_nodes',
      ]) {
        expect(stdout).toMatch(new RegExp(`^${name} `, 'm'));
      }
    },
    START_TIMEOUT_MS,
  );

  it('calls memory__create_entities with the page request, then shows its ledger row', async () => {
    const res = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: callHeaders,
      body: callBody,
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as {
      result?: { isError?: boolean; structuredContent?: { entities: Array<{ name: string }> } };
      error?: unknown;
    };
    expect(answer.error).toBeUndefined();
    expect(answer.result?.isError).not.toBe(true);
    expect(answer.result?.structuredContent?.entities).toEqual([
      expect.objectContaining({ name: 'Ada Lovelace', entityType: 'person' }),
    ]);
    // `${ENV:PWD}/data/memory.jsonl`: the graph is kept beside the ledger, not in node_modules.
    expect(existsSync(join(root, 'data', 'memory.jsonl'))).toBe(true);

    const ledger = await fetch(`${baseUrl}${ledgerPath}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(ledger.status).toBe(200);
    const { items } = (await ledger.json()) as { items: Array<Record<string, unknown>> };
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      transport: 'streamable-http',
      method: 'tools/call',
      target: 'memory__create_entities',
      outcome: 'success',
      upstreamServer: 'memory',
      upstreamTool: 'create_entities',
    });
  });
});
