/**
 * The official MCP Inspector, headless (@modelcontextprotocol/inspector-cli),
 * against the real gateway with its default content: over stdio (the
 * inspector spawns the built CLI) and over Streamable HTTP (the gateway runs
 * in this process). Each run is one inspector process: connect, one method,
 * print the result as JSON, disconnect.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { CLI_ENTRY, REPO_ROOT } from '../support/stdio-process';

const INSPECTOR_BUILD = join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector-cli',
  'build',
);
const INSPECTOR = join(INSPECTOR_BUILD, 'index.js');
const RUN_TIMEOUT_MS = 60_000;
/** A stdio run boots a gateway child, which takes seconds on a busy machine. */
const TEST_TIMEOUT_MS = 90_000;

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface ToolsListResult {
  tools: Array<{ name: string; inputSchema: object; annotations?: object }>;
}

interface SearchResult {
  total: number;
  returned: number;
  products: Array<{ name: string }>;
}

interface CallToolResult {
  isError?: boolean;
  structuredContent?: SearchResult;
  content: Array<{ type: string; text?: string }>;
}

interface ReadResourceResult {
  contents: Array<{ uri: string; mimeType?: string; text?: string }>;
}

let gateway: HttpGatewayHandle;
let scratch: string;

beforeAll(async () => {
  gateway = await startHttpGateway();
  scratch = mkdtempSync(join(tmpdir(), 'owlclaw-inspector-'));
});

afterAll(async () => {
  await gateway?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the inspector once; `target` is the server URL, or the command line of a stdio server. */
function runInspector(target: string[], options: string[]): Promise<InspectorRun> {
  // Everything after `--` is the target's own command line (its --transport is not the inspector's).
  const [first, ...rest] = target;
  const args = [INSPECTOR, first, ...options, ...(rest.length > 0 ? ['--', ...rest] : [])];
  const child = spawn(process.execPath, args, {
    // The inspector finds its own package.json at `../package.json` from the working directory.
    cwd: INSPECTOR_BUILD,
    // A stdio gateway inherits both: so it gets the repository's skills and a scratch ledger.
    env: {
      PATH: process.env.PATH ?? '',
      MCP_SERVER_RESOURCES_SKILLS_DIR: join(REPO_ROOT, 'capabilities'),
      MCP_SERVER_LEDGER_SQLITE_PATH: join(scratch, 'ledger.db'),
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`inspector timed out:\n${stderr.slice(-3000)}`));
    }, RUN_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON result the inspector printed; fails with its stderr when it did not succeed. */
function resultOf<T>(run: InspectorRun): T {
  if (run.code !== 0) {
    throw new Error(`inspector exited ${run.code}:\n${run.stderr.slice(-3000)}\n${run.stdout}`);
  }
  return JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as T;
}

const TARGETS: Array<[string, () => string[]]> = [
  ['stdio', () => [process.execPath, CLI_ENTRY, 'mcp-server', 'start', '--transport', 'stdio']],
  ['streamable-http', () => [`${gateway.baseUrl}/mcp`]],
];

describe.each(TARGETS)('MCP Inspector CLI over %s', (_kind, target) => {
  test(
    'tools/list shows the demo tools with their input schemas',
    async () => {
      const { tools } = resultOf<ToolsListResult>(
        await runInspector(target(), ['--method', 'tools/list']),
      );
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['inventory_search', 'inventory_check_stock', 'orders_place']),
      );
      const search = tools.find((tool) => tool.name === 'inventory_search')!;
      expect(search.inputSchema).toMatchObject({
        type: 'object',
        required: ['query'],
        properties: { query: { type: 'string' } },
      });
      expect(search.annotations).toMatchObject({ readOnlyHint: true });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'tools/call inventory_search finds the tents',
    async () => {
      const result = resultOf<CallToolResult>(
        await runInspector(target(), [
          '--method',
          'tools/call',
          '--tool-name',
          'inventory_search',
          '--tool-arg',
          'query=tent',
          'limit=2',
        ]),
      );
      expect(result.isError).not.toBe(true);
      const found =
        result.structuredContent ?? (JSON.parse(result.content[0].text!) as SearchResult);
      expect(found.returned).toBe(2);
      expect(found.total).toBeGreaterThanOrEqual(3);
      for (const product of found.products) expect(product.name).toMatch(/tent/i);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'resources/read skill://orders/place-order returns its SKILL.md',
    async () => {
      const uri = 'skill://orders/place-order';
      const { contents } = resultOf<ReadResourceResult>(
        await runInspector(target(), ['--method', 'resources/read', '--uri', uri]),
      );
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
      expect(contents[0].text).toContain('# Place an order correctly');
    },
    TEST_TIMEOUT_MS,
  );
});
