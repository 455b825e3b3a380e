import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { META_ESTIMATED_COST } from '../../src/tools/tools.constants';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { waitForLedgerRows } from '../support/sqlite-ledger';
import { REPO_ROOT } from '../support/stdio-process';
import { EVERYTHING_ENTRY_PATH } from '../support/upstream-records';
import { allTools } from '../support/sdk-list-pages';
import { TYPESCRIPT_LOADER } from '../support/typescript-loader';

/**
 * Upstream tools through the gateway, driven by the official SDK client over
 * Streamable HTTP: the SDK fixture upstream and server-everything over stdio,
 * plus one upstream that cannot start, listed and called beside local tools
 * under the same visibility, rate-limit, budget and ledger rules.
 */

const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
const ECHO_COST = 2;

interface LedgerRowRecord {
  client_id: string;
  target: string;
  outcome: string;
  error_code: number | null;
  denial_reason: string | null;
  cost: number;
}

let dir: string;
let gateway: HttpGatewayHandle;
const handles: SdkClientHandle[] = [];

function writeRegistryFile(name: string, record: Record<string, unknown>): void {
  writeFileSync(join(dir, name), JSON.stringify({ version: 1, ...record }));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-tools-'));
  writeRegistryFile('echo.json', {
    server_id: 'echo',
    transport: 'stdio',
    stdio: {
      command: process.execPath,
      args: ['-r', TYPESCRIPT_LOADER, ECHO_UPSTREAM],
      cwd: REPO_ROOT,
    },
    allowed_tools: ['echo', 'slow', 'concurrency'],
    denied_tools: ['concurrency'],
    cost: { default: ECHO_COST, tools: { slow: 0 } },
    budgets: { tool_timeout_ms: 1_000, max_concurrency: 4, max_tool_output_bytes: 65_536 },
  });
  writeRegistryFile('everything.json', {
    server_id: 'everything',
    transport: 'stdio',
    stdio: { command: process.execPath, args: [EVERYTHING_ENTRY_PATH, 'stdio'], cwd: REPO_ROOT },
    allowed_tools: ['echo', 'get-*'],
    denied_tools: ['get-env'],
  });
  writeRegistryFile('broken.json', {
    server_id: 'broken',
    transport: 'stdio',
    stdio: { command: join(dir, 'no-such-upstream') },
    allowed_tools: ['*'],
  });
  gateway = await startHttpGateway({
    fixtures: true,
    config: {
      upstreams: { registry_dir: dir },
      governance: {
        clients: {
          viewer: { deny: ['echo__*'] },
          limited: { tool_limits: { echo__echo: { max_calls_per_minute: 1 } } },
          spender: { quota: { monthly_budget: 3 } },
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
  if (dir) rmSync(dir, { recursive: true, force: true });
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

async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const error = await client.callTool({ name, arguments: args }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError & { data?: Record<string, unknown> };
}

/** The client's settled ledger rows, once `count` of them are there. */
function ledgerRows(clientId: string, count: number): Promise<LedgerRowRecord[]> {
  return waitForLedgerRows<LedgerRowRecord>(gateway.config.ledger.sqlite_path, clientId, count);
}

describe('upstream tools through the gateway', () => {
  it('lists allowed upstream tools beside local ones under their exposed names', async () => {
    const names = (await allTools(await clientAs('alpha'))).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['fx_add', 'echo__echo', 'echo__slow', 'everything__echo']),
    );
    expect(names).toContain('everything__get-sum');
    // Not allowed, denied, and the tools of an upstream that never started.
    expect(names).not.toContain('echo__flood');
    expect(names).not.toContain('echo__concurrency');
    expect(names).not.toContain('everything__get-env');
    expect(names.filter((name) => name.startsWith('broken__'))).toEqual([]);
  });

  it('publishes the upstream schema and the record cost as the cost hint', async () => {
    const tools = await allTools(await clientAs('alpha'));
    const echo = tools.find((tool) => tool.name === 'everything__echo');
    expect(echo?.inputSchema.properties).toHaveProperty('message');
    const fixtureEcho = tools.find((tool) => tool.name === 'echo__echo');
    expect(fixtureEcho?._meta?.[META_ESTIMATED_COST]).toBe(ECHO_COST);
  });

  it('forwards a call to each upstream and ledgers it under the exposed name', async () => {
    const client = await clientAs('caller');
    const fixture = await client.callTool({ name: 'echo__echo', arguments: { text: 'hello' } });
    expect(fixture.content).toEqual([{ type: 'text', text: 'hello' }]);
    const everything = await client.callTool({
      name: 'everything__echo',
      arguments: { message: 'hi' },
    });
    expect(JSON.stringify(everything.content)).toContain('hi');
    const rows = await ledgerRows('caller', 2);
    expect(rows.map(({ target, outcome, cost }) => ({ target, outcome, cost }))).toEqual([
      { target: 'echo__echo', outcome: 'success', cost: ECHO_COST },
      { target: 'everything__echo', outcome: 'success', cost: 0 },
    ]);
  });

  it('hides upstream tools a visibility rule denies, and answers them as unknown tools', async () => {
    const client = await clientAs('viewer');
    const names = (await allTools(client)).map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('echo__'))).toEqual([]);
    expect(names).toContain('everything__echo');
    expect((await callError(client, 'echo__echo', { text: 'x' })).code).toBe(-32001);
  });

  it('enforces a per-tool rate limit on an upstream tool', async () => {
    const client = await clientAs('limited');
    await client.callTool({ name: 'echo__echo', arguments: { text: 'one' } });
    const error = await callError(client, 'echo__echo', { text: 'two' });
    expect(error.code).toBe(-32003);
    expect(error.data).toMatchObject({ reason: 'rate_limited' });
  });

  it('charges the record cost against the monthly budget', async () => {
    const client = await clientAs('spender');
    await client.callTool({ name: 'echo__echo', arguments: { text: 'paid' } });
    const error = await callError(client, 'echo__echo', { text: 'over' });
    expect(error.code).toBe(-32003);
    expect(error.data).toMatchObject({ reason: 'budget_exceeded' });
    const rows = await ledgerRows('spender', 2);
    expect(rows.map(({ cost, denial_reason }) => ({ cost, denial_reason }))).toEqual([
      { cost: ECHO_COST, denial_reason: null },
      { cost: 0, denial_reason: 'budget_exceeded' },
    ]);
  });

  it('relays the upstream progress to a client that asked for it', async () => {
    const client = await clientAs('watcher');
    const seen: number[] = [];
    const result = await client.callTool(
      { name: 'echo__slow', arguments: { ms: 300, steps: 3 } },
      undefined,
      {
        onprogress: ({ progress }) => seen.push(progress),
      },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'slept 300 ms' }]);
    // The SDK client handles a notification after the response it precedes, so the last step may be lost.
    expect(seen).toEqual(expect.arrayContaining([1, 2]));
  });

  it('answers an upstream timeout with -32004 and ledgers it', async () => {
    const client = await clientAs('waiter');
    const error = await callError(client, 'echo__slow', { ms: 3_000 });
    expect(error.code).toBe(-32004);
    expect(error.data).toMatchObject({ code: 'mcp_timeout', server_id: 'echo' });
    const [row] = await ledgerRows('waiter', 1);
    expect(row).toMatchObject({ target: 'echo__slow', outcome: 'timeout', error_code: -32004 });
  });
});
