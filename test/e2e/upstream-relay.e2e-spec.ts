import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageRequestSchema,
  ElicitRequest,
  ElicitRequestSchema,
  ElicitResult,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { UPSTREAM_RELAY_LIMITS } from '../../src/upstreams/upstream-relay.limits';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { allTools } from '../support/sdk-list-pages';
import { waitForLedgerRows } from '../support/sqlite-ledger';
import { REPO_ROOT } from '../support/stdio-process';
import { TYPESCRIPT_LOADER } from '../support/typescript-loader';

/**
 * The upstream's sampling and elicitation requests relayed to the client
 * whose call is in flight, and `approval_policy: always` asked through
 * elicitation: the SDK fixture upstream over stdio, driven through the
 * gateway by official SDK clients with and without the capabilities.
 */

const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
const COST = 1;

interface LedgerRowRecord {
  target: string;
  outcome: string;
  error_code: number | null;
  denial_reason: string | null;
  error_message: string | null;
  cost: number;
  upstream_server: string | null;
  upstream_tool: string | null;
}

let dir: string;
let gateway: HttpGatewayHandle;
const handles: SdkClientHandle[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-relay-'));
  writeFileSync(
    join(dir, 'echo.json'),
    JSON.stringify({
      version: 1,
      server_id: 'echo',
      display_name: 'Echo fixture',
      transport: 'stdio',
      stdio: {
        command: process.execPath,
        args: ['-r', TYPESCRIPT_LOADER, ECHO_UPSTREAM],
        cwd: REPO_ROOT,
      },
      allowed_tools: ['echo', 'slow', 'relay_*', 'approval_*'],
      approval_policy: { default: 'never', tools: { approval_write: 'always' } },
      cost: COST,
      budgets: { tool_timeout_ms: 10_000, max_concurrency: 8, max_tool_output_bytes: 65_536 },
    }),
  );
  gateway = await startHttpGateway({
    fixtures: true,
    config: { upstreams: { registry_dir: dir } },
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

async function clientAs(clientId: string, capabilities: ClientCapabilities = {}): Promise<Client> {
  const handle = await connectSdkClient({
    kind: 'streamable-http',
    baseUrl: gateway.baseUrl,
    headers: { 'X-MCP-Client-ID': clientId },
    capabilities,
  });
  handles.push(handle);
  return handle.client;
}

/** A client that answers sampling with the prompt it got, and records every request. */
async function samplingClient(clientId: string): Promise<{ client: Client; asked: unknown[] }> {
  const client = await clientAs(clientId, { sampling: {} });
  const asked: CreateMessageRequest['params'][] = [];
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    asked.push(request.params);
    const content = request.params.messages[0]?.content;
    const prompt = content && 'text' in content ? content.text : '';
    return {
      role: 'assistant',
      content: { type: 'text', text: `sampled: ${String(prompt)}` },
      model: 'test-model',
    };
  });
  return { client, asked };
}

/** A client that answers every elicitation with `answer`, and records every request. */
async function elicitingClient(
  clientId: string,
  answer: (request: ElicitRequest['params']) => ElicitResult,
): Promise<{ client: Client; asked: ElicitRequest['params'][] }> {
  const client = await clientAs(clientId, { elicitation: {} });
  const asked: ElicitRequest['params'][] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    return answer(request.params);
  });
  return { client, asked };
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const error = await client.callTool({ name, arguments: args }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError & { data?: Record<string, unknown> };
}

async function writes(client: Client): Promise<number> {
  return Number((await call(client, 'echo__approval_writes')).text);
}

/** The client's settled ledger rows, once `count` of them are there. */
function ledgerRows(clientId: string, count: number): Promise<LedgerRowRecord[]> {
  return waitForLedgerRows<LedgerRowRecord>(gateway.config.ledger.sqlite_path, clientId, count);
}

describe('sampling relay', () => {
  it('relays the upstream sampling request to a client that declared sampling', async () => {
    const { client, asked } = await samplingClient('sampler');
    const result = await call(client, 'echo__relay_sample', { prompt: 'hello' });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.text)).toMatchObject({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'sampled: hello' },
    });
    expect(asked).toEqual([
      expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
        maxTokens: 16,
      }),
    ]);
  });

  it('refuses it, as a JSON-RPC error the upstream sees, when the client did not declare sampling', async () => {
    const client = await clientAs('no-sampling');
    const result = await call(client, 'echo__relay_sample', { prompt: 'hello' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^refused -32600 no_capability: .*did not declare the sampling/);
  });

  it(`relays at most ${UPSTREAM_RELAY_LIMITS.maxRequestsPerCall} requests for one call`, async () => {
    const { client, asked } = await samplingClient('sampler-many');
    const times = UPSTREAM_RELAY_LIMITS.maxRequestsPerCall + 2;
    const lines = (await call(client, 'echo__relay_sample', { prompt: 'again', times })).text.split(
      '\n',
    );
    expect(lines).toHaveLength(times);
    expect(lines.filter((line) => line.includes('sampled: again'))).toHaveLength(
      UPSTREAM_RELAY_LIMITS.maxRequestsPerCall,
    );
    expect(lines.slice(UPSTREAM_RELAY_LIMITS.maxRequestsPerCall)).toEqual([
      expect.stringMatching(/^refused -32600 too_many: .*per-call limit/),
      expect.stringMatching(/^refused -32600 too_many: /),
    ]);
    expect(asked).toHaveLength(UPSTREAM_RELAY_LIMITS.maxRequestsPerCall);
  });

  it('refuses a request whose params are over the size limit, without asking the client', async () => {
    const { client, asked } = await samplingClient('sampler-big');
    const bytes = UPSTREAM_RELAY_LIMITS.maxParamsBytes + 1;
    const result = await call(client, 'echo__relay_sample', { prompt: 'big', bytes });
    expect(result.text).toMatch(/^refused -32602 too_large: .*over the relay limit of 262144/);
    expect(asked).toEqual([]);
  });

  it("refuses the client's answer when it is over the size limit", async () => {
    const client = await clientAs('sampler-huge-answer', { sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'a'.repeat(UPSTREAM_RELAY_LIMITS.maxResultBytes) },
      model: 'test-model',
    }));
    const result = await call(client, 'echo__relay_sample', { prompt: 'tell me everything' });
    expect(result.text).toMatch(
      /^refused -32603 too_large: .*answer is \d+ bytes, over the relay limit of 1048576/,
    );
  });

  it('refuses when the calls in flight belong to two client sessions (attribution is ambiguous)', async () => {
    const busy = await samplingClient('busy');
    const { client, asked } = await samplingClient('second');
    let inFlight!: () => void;
    const started = new Promise<void>((resolve) => (inFlight = resolve));
    const slow = busy.client.callTool(
      { name: 'echo__slow', arguments: { ms: 3_000, steps: 6 } },
      undefined,
      {
        onprogress: () => inFlight(),
      },
    );
    await started;
    const result = await call(client, 'echo__relay_sample', { prompt: 'whose?' });
    expect(result.text).toMatch(/^refused -32600 ambiguous: .*2 client sessions/);
    expect(asked).toEqual([]);
    expect(busy.asked).toEqual([]);
    await slow;
  });

  it('refuses a request that arrives when no call is in flight', async () => {
    const { client, asked } = await samplingClient('sampler-later');
    expect((await call(client, 'echo__relay_sample_later', { after_ms: 100 })).text).toBe(
      'scheduled',
    );
    // The fixture sends its request 100 ms after answering; read what it got once that is long past.
    let outcome = 'pending';
    for (let tries = 0; tries < 50 && outcome === 'pending'; tries++) {
      await delay(200);
      outcome = (await call(client, 'echo__relay_later_outcome')).text;
    }
    expect(outcome).toMatch(/^refused -32600 no_call_in_flight: /);
    expect(asked).toEqual([]);
  });
});

describe('elicitation relay', () => {
  it('relays the upstream elicitation to a client that declared elicitation', async () => {
    const { client, asked } = await elicitingClient('elicited', () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    const result = await call(client, 'echo__relay_elicit', { message: 'Who are you?' });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.text)).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(asked).toEqual([expect.objectContaining({ message: 'Who are you?' })]);
  });

  it('refuses it when the client did not declare elicitation', async () => {
    const client = await clientAs('no-elicitation');
    const result = await call(client, 'echo__relay_elicit', { message: 'Who are you?' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^refused -32600 no_capability: .*elicitation/);
  });
});

describe('a 2026-07-28 caller (answers come on a retry)', () => {
  /** The SDK v2 client speaking 2026-07-28, answering every elicitation with `answer`. */
  async function modernClient(clientId: string, answer: Record<string, unknown>) {
    const client = new ClientV2(
      { name: clientId, version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message));
      return answer as { action: 'accept'; content: Record<string, string | boolean> };
    });
    await client.connect(
      new HttpV2(new URL(`${gateway.baseUrl}/mcp`), {
        requestInit: { headers: { 'X-MCP-Client-ID': clientId } },
      }),
    );
    return { client, asked };
  }

  function textOf(result: { content?: unknown; isError?: unknown }): string {
    const content = Array.isArray(result.content)
      ? (result.content as Array<{ text?: string }>)
      : [];
    return content.map((item) => item.text ?? '').join('\n');
  }

  it("refuses an upstream's elicitation: the retry would run the upstream's call again", async () => {
    const { client, asked } = await modernClient('modern-relay', {
      action: 'accept',
      content: { name: 'Ada' },
    });
    try {
      const result = await client.callTool({
        name: 'echo__relay_elicit',
        arguments: { message: 'Who are you?' },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^refused -32600 caller_answers_by_retry: /);
      expect(asked).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('asks approval through an input-required round, before the upstream is called at all', async () => {
    const { client, asked } = await modernClient('modern-approver', {
      action: 'accept',
      content: { approve: true },
    });
    try {
      const result = await client.callTool({
        name: 'echo__approval_write',
        arguments: { note: 'ship it' },
      });
      expect(result.isError).not.toBe(true);
      expect(textOf(result)).toMatch(/^written \d+$/);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('"approval_write"');
    } finally {
      await client.close();
    }
    const rows = await ledgerRows('modern-approver', 2);
    expect(rows.map((row) => row.outcome)).toEqual(['input_required', 'success']);
  });
});

describe('approval_policy: always', () => {
  it('asks the client, naming server, tool and arguments, and forwards the call on accept', async () => {
    const { client, asked } = await elicitingClient('approver', () => ({
      action: 'accept',
      content: { approve: true },
    }));
    const before = await writes(client);
    const result = await call(client, 'echo__approval_write', { note: 'ship it' });
    expect(result).toEqual({ text: `written ${before + 1}`, isError: false });
    expect(await writes(client)).toBe(before + 1);
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toContain('"approval_write"');
    expect(asked[0].message).toContain('Echo fixture (echo)');
    expect(asked[0].message).toContain('{"note":"ship it"}');
    expect((asked[0] as { requestedSchema?: unknown }).requestedSchema).toMatchObject({
      properties: { approve: { type: 'boolean' } },
      required: ['approve'],
    });
    const rows = await ledgerRows('approver', 3);
    expect(rows[1]).toMatchObject({
      target: 'echo__approval_write',
      outcome: 'success',
      cost: COST,
      upstream_server: 'echo',
      upstream_tool: 'approval_write',
    });
  });

  it('shows a bounded summary of large arguments', async () => {
    const { client, asked } = await elicitingClient('approver-big', () => ({ action: 'decline' }));
    await callError(client, 'echo__approval_write', { note: 'n'.repeat(100_000) });
    expect(asked[0].message.length).toBeLessThan(1_000);
    expect(asked[0].message).toMatch(/more characters not shown/);
  });

  it.each<[string, ElicitResult]>([
    ['declined', { action: 'decline' }],
    ['cancelled', { action: 'cancel' }],
    ['declined', { action: 'accept', content: { approve: false } }],
  ])(
    'refuses with -32003 approval_required (%s) when the client answers %j; the upstream does not run',
    async (approval, answer) => {
      const clientId = `refuser-${approval}-${JSON.stringify(answer).length}`;
      const { client } = await elicitingClient(clientId, () => answer);
      const before = await writes(client);
      const error = await callError(client, 'echo__approval_write', { note: 'no' });
      expect(error.code).toBe(-32003);
      expect(error.data).toMatchObject({
        reason: 'approval_required',
        code: 'mcp_policy_denied',
        retryable: false,
        server_id: 'echo',
        tool: 'approval_write',
        approval,
      });
      expect(await writes(client)).toBe(before);
      const rows = await ledgerRows(clientId, 3);
      expect(rows[1]).toMatchObject({
        target: 'echo__approval_write',
        outcome: 'denied',
        error_code: -32003,
        denial_reason: 'approval_required',
        cost: 0,
        upstream_server: 'echo',
        upstream_tool: 'approval_write',
      });
      expect(rows[1].error_message).toContain(`not approved (${approval})`);
    },
  );

  it('refuses a client without the elicitation capability the same way, ledgered', async () => {
    const client = await clientAs('no-approver');
    const before = await writes(client);
    const error = await callError(client, 'echo__approval_write', { note: 'no' });
    expect(error.code).toBe(-32003);
    expect(error.data).toMatchObject({
      reason: 'approval_required',
      code: 'mcp_policy_denied',
      retryable: false,
      approval: 'no_elicitation_capability',
    });
    expect(await writes(client)).toBe(before);
    const rows = await ledgerRows('no-approver', 3);
    expect(rows[1]).toMatchObject({ outcome: 'denied', denial_reason: 'approval_required' });
    expect(rows[1].error_message).toContain('no elicitation capability');
  });

  it('does not ask for tools the policy does not name', async () => {
    const { client, asked } = await elicitingClient('no-ask', () => ({ action: 'decline' }));
    expect((await call(client, 'echo__echo', { text: 'free' })).text).toBe('free');
    expect(asked).toEqual([]);
  });
});

describe('ledger rows of upstream calls', () => {
  it('name the server and the upstream tool; local tools leave both null', async () => {
    const client = await clientAs('ledger-names');
    await call(client, 'echo__echo', { text: 'x' });
    await client.callTool({ name: 'fx_add', arguments: { a: 1, b: 2 } });
    const rows = await ledgerRows('ledger-names', 2);
    expect(
      rows.map(({ target, upstream_server, upstream_tool }) => ({
        target,
        upstream_server,
        upstream_tool,
      })),
    ).toEqual([
      { target: 'echo__echo', upstream_server: 'echo', upstream_tool: 'echo' },
      { target: 'fx_add', upstream_server: null, upstream_tool: null },
    ]);
  });
});

describe("over the gateway's stdio transport", () => {
  it('relays sampling to a stdio client and asks it for approval', async () => {
    const handle = await connectSdkClient({
      kind: 'stdio',
      fixtures: true,
      env: { MCP_SERVER_UPSTREAMS_REGISTRY_DIR: dir },
      capabilities: { sampling: {}, elicitation: {} },
    });
    handles.push(handle);
    const { client } = handle;
    const approvals: string[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'from stdio' },
      model: 'stdio-model',
    }));
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      approvals.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    // Upstream tools appear once the gateway has listed the upstream, after it started, behind
    // the fixture's local tools (a later page).
    for (let tries = 0; tries < 100; tries++) {
      const tools = await allTools(client);
      if (tools.some((tool) => tool.name === 'echo__relay_sample')) break;
      await delay(100);
    }
    expect((await allTools(client)).map((tool) => tool.name)).toContain('echo__relay_sample');
    const sampled = await call(client, 'echo__relay_sample', { prompt: 'over stdio' });
    expect(JSON.parse(sampled.text)).toMatchObject({ content: { text: 'from stdio' } });
    expect((await call(client, 'echo__approval_write')).text).toMatch(/^written \d+$/);
    expect(approvals).toEqual([expect.stringContaining('"approval_write"')]);
  }, 60_000);
});
