import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanRegistry } from '../../src/upstreams/registry.scanner';
import { UpstreamRegistryService } from '../../src/upstreams/upstream-registry.service';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { EverythingHttpServer } from '../support/everything-http';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { waitForLedgerRows } from '../support/sqlite-ledger';
import { REPO_ROOT } from '../support/stdio-process';
import { allTools } from '../support/sdk-list-pages';

/**
 * The worked example of docs/federation.md, run as written: the registry
 * files in examples/mcp.d (server-filesystem and server-memory from npm, over
 * stdio) copied unchanged into a scratch layout, plus server-everything as
 * its own Streamable HTTP server and one server with no allowed_tools, all
 * driven through the gateway by the official SDK client.
 */

const EXAMPLE_REGISTRY = join(REPO_ROOT, 'examples', 'mcp.d');
const WRITE_COST = 5;

interface LedgerRowRecord {
  client_id: string;
  target: string;
  outcome: string;
  error_code: number | null;
  denial_reason: string | null;
  cost: number;
}

let root: string;
let everythingHttp: EverythingHttpServer;
let gateway: HttpGatewayHandle;
const handles: SdkClientHandle[] = [];
const memoryFileBefore = process.env.OWLCLAW_MEMORY_FILE;

/**
 * The layout the docs describe: <root>/mcp.d with the example files,
 * <root>/node_modules with the servers, <root>/shared for server-filesystem.
 */
function layOutExample(): string {
  const registry = join(root, 'mcp.d');
  mkdirSync(registry);
  for (const file of readdirSync(EXAMPLE_REGISTRY)) {
    copyFileSync(join(EXAMPLE_REGISTRY, file), join(registry, file));
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, 'shared'));
  writeFileSync(join(root, 'shared', 'notes.txt'), 'first note\n');
  return registry;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'owlclaw-npm-upstreams-'));
  const registry = layOutExample();
  process.env.OWLCLAW_MEMORY_FILE = join(root, 'memory.jsonl');
  everythingHttp = await EverythingHttpServer.start();
  writeFileSync(
    join(registry, 'everything-http.json'),
    JSON.stringify({
      version: 1,
      server_id: 'everything',
      transport: 'streamable_http',
      http: { url: everythingHttp.url },
      allowed_tools: ['echo'],
    }),
  );
  // Connects and lists like the others, but allows nothing: default deny.
  writeFileSync(
    join(registry, 'silent.yaml'),
    [
      'version: 1',
      'server_id: silent',
      'transport: stdio',
      'stdio:',
      '  command: node',
      "  args: ['node_modules/@modelcontextprotocol/server-memory/dist/index.js']",
      '  cwd: ..',
      '  env: { MEMORY_FILE_PATH: "${ENV:OWLCLAW_MEMORY_FILE}" }',
      '',
    ].join('\n'),
  );
  gateway = await startHttpGateway({
    config: {
      upstreams: { registry_dir: registry },
      governance: {
        clients: {
          reader: { deny: ['files__write_*'] },
          writer: { quota: { monthly_budget: WRITE_COST + 1 } },
          hasty: { tool_limits: { memory__read_graph: { max_calls_per_minute: 1 } } },
        },
      },
    },
  });
  await gateway.app.get(UpstreamToolsPublisher).settled();
}, 120_000);

afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.dispose()));
});

afterAll(async () => {
  await gateway?.close();
  await everythingHttp?.stop();
  if (memoryFileBefore === undefined) delete process.env.OWLCLAW_MEMORY_FILE;
  else process.env.OWLCLAW_MEMORY_FILE = memoryFileBefore;
  if (root) rmSync(root, { recursive: true, force: true });
});

async function clientAs(clientId: string): Promise<Client> {
  const handle = await connectSdkClient({
    kind: 'streamable-http',
    baseUrl: gateway.baseUrl,
    headers: { 'X-MCP-Client-ID': clientId },
  });
  handles.push(handle);
  return handle.client;
}

async function callError(client: Client, name: string, args: Record<string, unknown>) {
  const error = await client.callTool({ name, arguments: args }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError & { data?: Record<string, unknown> };
}

/** The text blocks of a call result, joined. */
function textOf(result: Record<string, unknown>): string {
  const blocks = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return blocks.map((block) => block.text ?? '').join('\n');
}

/** The client's settled ledger rows, once `count` of them are there. */
function ledgerRows(clientId: string, count: number): Promise<LedgerRowRecord[]> {
  return waitForLedgerRows<LedgerRowRecord>(gateway.config.ledger.sqlite_path, clientId, count);
}

describe('real npm MCP servers through the gateway', () => {
  it('lists exactly the tools the example files allow, under their namespaces', async () => {
    const names = (await allTools(await clientAs('lister'))).map((tool) => tool.name);
    const upstream = names.filter((name) => name.includes('__')).sort();
    expect(upstream).toEqual([
      'everything__echo',
      'files__list_allowed_directories',
      'files__list_directory',
      'files__read_text_file',
      'files__write_file',
      'memory__add_observations',
      'memory__create_entities',
      'memory__create_relations',
      'memory__open_nodes',
      'memory__read_graph',
      'memory__search_nodes',
    ]);
  });

  it('keeps a knowledge graph in server-memory: entities created, then read back', async () => {
    const client = await clientAs('memorist');
    const created = await client.callTool({
      name: 'memory__create_entities',
      arguments: {
        entities: [
          { name: 'OwlClaw', entityType: 'project', observations: ['fronts MCP servers'] },
        ],
      },
    });
    expect(created.isError).toBeFalsy();
    await client.callTool({
      name: 'memory__add_observations',
      arguments: { observations: [{ entityName: 'OwlClaw', contents: ['ledgers every call'] }] },
    });
    const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} });
    const entity = JSON.parse(textOf(graph)).entities.find(
      (candidate: { name: string }) => candidate.name === 'OwlClaw',
    );
    expect(entity).toMatchObject({
      entityType: 'project',
      observations: ['fronts MCP servers', 'ledgers every call'],
    });
    // The upstream really wrote the file the registry's env reference named.
    expect(readFileSync(join(root, 'memory.jsonl'), 'utf8')).toContain('ledgers every call');
    const rows = await ledgerRows('memorist', 3);
    expect(rows.map(({ target, outcome, cost }) => ({ target, outcome, cost }))).toEqual([
      { target: 'memory__create_entities', outcome: 'success', cost: 0.5 },
      { target: 'memory__add_observations', outcome: 'success', cost: 0.5 },
      { target: 'memory__read_graph', outcome: 'success', cost: 0.5 },
    ]);
  });

  it('writes and reads a file through server-filesystem inside its directory', async () => {
    const client = await clientAs('filer');
    // Relative paths are the upstream's own rule: resolved against its allowed directory.
    const written = await client.callTool({
      name: 'files__write_file',
      arguments: { path: 'report.txt', content: 'written through the gateway' },
    });
    expect(written.isError).toBeFalsy();
    expect(readFileSync(join(root, 'shared', 'report.txt'), 'utf8')).toBe(
      'written through the gateway',
    );
    const read = await client.callTool({
      name: 'files__read_text_file',
      arguments: { path: 'notes.txt' },
    });
    expect(textOf(read)).toBe('first note\n');
  });

  it('relays the refusal of a path outside the directory as the upstream error, and ledgers it', async () => {
    const client = await clientAs('trespasser');
    const refused = await client.callTool({
      name: 'files__read_text_file',
      arguments: { path: join(root, 'memory.jsonl') },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('Access denied - path outside allowed directories');
    // The gateway and the upstream are still serving.
    const allowed = await client.callTool({
      name: 'files__list_allowed_directories',
      arguments: {},
    });
    expect(textOf(allowed)).toContain(join(root, 'shared'));
    const [row] = await ledgerRows('trespasser', 2);
    expect(row).toMatchObject({
      target: 'files__read_text_file',
      outcome: 'tool_error',
      error_code: null,
    });
  });

  it('calls server-everything over Streamable HTTP', async () => {
    const client = await clientAs('http-caller');
    const result = await client.callTool({
      name: 'everything__echo',
      arguments: { message: 'across two hops' },
    });
    expect(textOf(result)).toContain('across two hops');
    const [row] = await ledgerRows('http-caller', 1);
    expect(row).toMatchObject({ target: 'everything__echo', outcome: 'success' });
  });

  it('exposes nothing of a server whose record allows no tools, and refuses its names', async () => {
    const loaded = gateway.app.get(UpstreamRegistryService).current.servers;
    expect(loaded.map((server) => server.server_id)).toContain('silent');
    const client = await clientAs('prober');
    const names = (await allTools(client)).map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('silent__'))).toEqual([]);
    expect((await callError(client, 'silent__read_graph', {})).code).toBe(-32001);
  });

  it('hides tools a visibility pattern denies from one client only', async () => {
    const client = await clientAs('reader');
    const names = (await allTools(client)).map((tool) => tool.name);
    expect(names).toContain('files__read_text_file');
    expect(names).not.toContain('files__write_file');
    expect(
      (await callError(client, 'files__write_file', { path: 'x.txt', content: 'x' })).code,
    ).toBe(-32001);
  });

  it('charges the highest matching cost glob and refuses once the budget is spent', async () => {
    const client = await clientAs('writer');
    const paid = await client.callTool({
      name: 'files__write_file',
      arguments: { path: 'paid.txt', content: 'paid' },
    });
    expect(paid.isError).toBeFalsy();
    const error = await callError(client, 'files__write_file', {
      path: 'unpaid.txt',
      content: 'unpaid',
    });
    expect(error.code).toBe(-32003);
    expect(error.data).toMatchObject({ reason: 'budget_exceeded' });
    // The cheaper tool still fits in what is left (6 - 5 = 1).
    const listing = await client.callTool({
      name: 'files__list_directory',
      arguments: { path: '.' },
    });
    expect(textOf(listing)).toContain('[FILE] paid.txt');
    const rows = await ledgerRows('writer', 3);
    expect(
      rows.map(({ target, cost, denial_reason }) => ({ target, cost, denial_reason })),
    ).toEqual([
      { target: 'files__write_file', cost: WRITE_COST, denial_reason: null },
      { target: 'files__write_file', cost: 0, denial_reason: 'budget_exceeded' },
      { target: 'files__list_directory', cost: 1, denial_reason: null },
    ]);
  });

  it('applies a per-tool rate limit to an upstream tool', async () => {
    const client = await clientAs('hasty');
    await client.callTool({ name: 'memory__read_graph', arguments: {} });
    const error = await callError(client, 'memory__read_graph', {});
    expect(error.code).toBe(-32003);
    expect(error.data).toMatchObject({ reason: 'rate_limited' });
  });
});

describe('docs/federation.md', () => {
  it('shows every example registry file exactly as the test runs it', () => {
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'federation.md'), 'utf8');
    for (const file of readdirSync(EXAMPLE_REGISTRY)) {
      expect(docs).toContain(readFileSync(join(EXAMPLE_REGISTRY, file), 'utf8'));
    }
  });
});

describe('the example registry without OWLCLAW_MEMORY_FILE', () => {
  it('leaves server-memory out, naming the variable, and still loads server-filesystem', () => {
    const env = { ...process.env };
    delete env.OWLCLAW_MEMORY_FILE;
    const registry = scanRegistry(EXAMPLE_REGISTRY, env, { strict: true });
    expect(registry.servers.map((server) => server.server_id)).toEqual(['files']);
    expect(registry.rejected).toEqual([
      expect.objectContaining({
        file: 'memory.yaml',
        problems: [
          'stdio.env.MEMORY_FILE_PATH: ${ENV:OWLCLAW_MEMORY_FILE} is not set (no default given)',
        ],
      }),
    ]);
  });
});
