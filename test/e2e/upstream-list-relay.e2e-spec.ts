import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  McpError,
  Notification,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { UpstreamPromptsPublisher } from '../../src/upstreams/upstream-prompts.publisher';
import { UpstreamResourcesProvider } from '../../src/upstreams/upstream-resources.provider';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { relayUpstreamFile } from '../support/relay-upstream-record';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { readLedgerRows } from '../support/sqlite-ledger';
import { REPO_ROOT } from '../support/stdio-process';
import { EVERYTHING_ENTRY_PATH } from '../support/upstream-records';
import { allPrompts, allResources } from '../support/sdk-list-pages';

/**
 * What an upstream says and serves beyond its tools, through the gateway to
 * an SDK client over Streamable HTTP: list_changed relayed (and a flood of it
 * coalesced), progress relayed, cancellation reaching the upstream, prompts
 * and resources relayed where the record allows it, and server-everything's
 * prompts and resources through the same path.
 */

const NOTES_URI = 'mcp+upstream://relay/file%3A%2F%2F%2Fnotes%2Fa%20b.txt';

let dir: string;
let gateway: HttpGatewayHandle;
const handles: SdkClientHandle[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-relay-'));
  const write = (name: string, body: Record<string, unknown>) =>
    writeFileSync(join(dir, name), JSON.stringify(body));
  write(
    'relay.json',
    relayUpstreamFile('relay', {
      relay: { prompts: true, resources: true },
      budgets: { tool_timeout_ms: 10_000, max_concurrency: 8, max_tool_output_bytes: 65_536 },
    }),
  );
  // The same fixture with relay off: its prompts and resources must not show.
  write('quiet.json', relayUpstreamFile('quiet'));
  write('everything.json', {
    version: 1,
    server_id: 'everything',
    transport: 'stdio',
    stdio: { command: process.execPath, args: [EVERYTHING_ENTRY_PATH, 'stdio'], cwd: REPO_ROOT },
    allowed_tools: ['echo'],
    relay: { prompts: true, resources: true },
  });
  gateway = await startHttpGateway({
    config: {
      upstreams: { registry_dir: dir },
      governance: {
        clients: {
          blind: { deny: ['mcp+upstream://relay/*', 'prompt:relay__*'] },
        },
      },
    },
  });
  await Promise.all([
    gateway.app.get(UpstreamToolsPublisher).settled(),
    gateway.app.get(UpstreamPromptsPublisher).settled(),
    gateway.app.get(UpstreamResourcesProvider).settled(),
  ]);
}, 120_000);

afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.dispose()));
});

afterAll(async () => {
  await gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function clientAs(clientId = 'alpha'): Promise<Client> {
  const handle = await connectSdkClient({
    kind: 'streamable-http',
    baseUrl: gateway.baseUrl,
    headers: { 'X-MCP-Client-ID': clientId },
  });
  handles.push(handle);
  return handle.client;
}

function textOf(result: Record<string, unknown>): string {
  return (result.content as Array<{ text: string }>)[0].text;
}

async function errorOf(
  promise: Promise<unknown>,
): Promise<McpError & { data?: Record<string, unknown> }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError & { data?: Record<string, unknown> };
}

/** Resolves with the notifications seen once `until` holds (polled); generous, never a timing assertion. */
async function waitFor(
  condition: () => Promise<boolean> | boolean,
  withinMs = 10_000,
): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await delay(50);
  }
}

async function allResourceUris(client: Client): Promise<string[]> {
  return (await allResources(client)).map((resource) => resource.uri);
}

async function allPromptNames(client: Client): Promise<string[]> {
  return (await allPrompts(client)).map((prompt) => prompt.name);
}

/** How many tools/list requests the relay fixture has served, once that number stops moving. */
async function settledListCount(client: Client): Promise<number> {
  let previous = -1;
  for (let tries = 0; tries < 40; tries++) {
    const count = Number(
      textOf(await client.callTool({ name: 'relay__list_count', arguments: {} })),
    );
    if (count === previous) return count;
    previous = count;
    await delay(300);
  }
  throw new Error('the fixture kept being listed');
}

describe('list_changed from an upstream', () => {
  it('relists the server and tells a connected client once, which then sees the new tool', async () => {
    const client = await clientAs();
    const seen: Notification[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void seen.push(n));
    await client.callTool({ name: 'relay__add_tool', arguments: { name: 'fresh', notify: true } });
    await waitFor(async () =>
      (await client.listTools()).tools.some((t) => t.name === 'relay__fresh'),
    );
    await waitFor(() => seen.length > 0);
    // One relisting is one registry change: one notification, however the session learnt of it.
    await delay(300);
    expect(seen).toHaveLength(1);
  });

  it('coalesces a flood of list_changed into at most two listings', async () => {
    const client = await clientAs();
    const before = await settledListCount(client);
    await client.callTool({ name: 'relay__flood_list_changed', arguments: { count: 500 } });
    const listings = (await settledListCount(client)) - before;
    expect(listings).toBeGreaterThanOrEqual(1);
    expect(listings).toBeLessThanOrEqual(2);
  });
});

describe('progress and cancellation', () => {
  it('relays the upstream progress to a client that sent a progressToken', async () => {
    const client = await clientAs();
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'relay__progress', arguments: { steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    expect(textOf(result)).toBe('done 3');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatchObject({ progress: 1, total: 3, message: 'step 1' });
  });

  it("cancels the upstream call when the client's request is cancelled", async () => {
    const client = await clientAs();
    const abortsBefore = Number(
      textOf(await client.callTool({ name: 'relay__aborts', arguments: {} })),
    );
    const controller = new AbortController();
    const call = client.callTool({ name: 'relay__wait_for_abort', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await delay(300);
    controller.abort('the user gave up');
    await expect(call).rejects.toThrow();
    await waitFor(async () => {
      const aborts = textOf(await client.callTool({ name: 'relay__aborts', arguments: {} }));
      return Number(aborts) > abortsBefore;
    });
  });
});

describe('relayed prompts', () => {
  it('lists and forwards the prompts of a server that relays them, named like tools', async () => {
    const client = await clientAs();
    const names = await allPromptNames(client);
    expect(names).toContain('relay__greet');
    // relay.prompts is false for quiet.
    expect(names.filter((name) => name.startsWith('quiet__'))).toEqual([]);
    const result = await client.getPrompt({ name: 'relay__greet', arguments: { who: 'Ada' } });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Hello, Ada!' } },
    ]);
    expect(
      (await errorOf(client.getPrompt({ name: 'quiet__greet', arguments: { who: 'x' } }))).code,
    ).toBe(-32602);
    // The declared required argument is checked before anything is forwarded.
    expect((await errorOf(client.getPrompt({ name: 'relay__greet' }))).code).toBe(-32602);
  });

  it('relays prompts list_changed and shows the new prompt', async () => {
    const client = await clientAs();
    const seen: Notification[] = [];
    client.setNotificationHandler(PromptListChangedNotificationSchema, (n) => void seen.push(n));
    await client.callTool({ name: 'relay__add_prompt', arguments: { name: 'farewell' } });
    await waitFor(() => seen.length > 0);
    const names = await allPromptNames(client);
    expect(names).toContain('relay__farewell');
  });

  it('hides relayed prompts from a client that a deny rule covers', async () => {
    const client = await clientAs('blind');
    const names = await allPromptNames(client);
    expect(names).not.toContain('relay__greet');
    const error = await errorOf(
      client.getPrompt({ name: 'relay__greet', arguments: { who: 'x' } }),
    );
    expect(error.code).toBe(-32602);
  });

  it('declares prompts list changes in the capabilities', async () => {
    const client = await clientAs();
    expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: true });
  });
});

describe('relayed resources', () => {
  it('lists resources under mcp+upstream://<server>/<encoded URI>, a URI that parses', async () => {
    const client = await clientAs();
    const uris = await allResourceUris(client);
    expect(uris).toContain(NOTES_URI);
    expect(uris.filter((uri) => uri.startsWith('mcp+upstream://quiet/'))).toEqual([]);
    const parsed = new URL(NOTES_URI);
    expect(parsed.protocol).toBe('mcp+upstream:');
    expect(parsed.host).toBe('relay');
    expect(decodeURIComponent(parsed.pathname.slice(1))).toBe('file:///notes/a b.txt');
  });

  it('reads through the gateway, governed and ledgered like a local read', async () => {
    const client = await clientAs('reader');
    const result = await client.readResource({ uri: NOTES_URI });
    expect(result.contents).toEqual([
      { uri: NOTES_URI, mimeType: 'text/plain', text: 'first note' },
    ]);
    let rows: Array<{ target: string; outcome: string }> = [];
    await waitFor(() => {
      rows = readLedgerRows(gateway.config.ledger.sqlite_path, 'reader');
      return rows.length > 0;
    });
    expect(rows[0]).toMatchObject({ target: NOTES_URI, outcome: 'success' });
  });

  it('refuses a read larger than max_tool_output_bytes, naming the limit', async () => {
    const client = await clientAs();
    const error = await errorOf(
      client.readResource({ uri: 'mcp+upstream://relay/memo%3A%2F%2Fbig' }),
    );
    expect(error.code).toBe(-32005);
    expect(error.data).toMatchObject({ code: 'mcp_output_too_large', limit_bytes: 65_536 });
  });

  it('answers not found for a server that does not relay, and -32602 for another spelling', async () => {
    const client = await clientAs();
    const quiet = await errorOf(
      client.readResource({ uri: 'mcp+upstream://quiet/file%3A%2F%2F%2Fnotes%2Fa%20b.txt' }),
    );
    expect(quiet.code).toBe(-32002);
    // Same resource, other escaping: one resource has one spelling, so deny rules cannot be stepped around.
    const other = await errorOf(
      client.readResource({ uri: 'mcp+upstream://relay/file:%2F%2F%2Fnotes%2Fa%20b.txt' }),
    );
    expect(other.code).toBe(-32602);
  });

  it('hides relayed resources from a client that a deny rule covers', async () => {
    const client = await clientAs('blind');
    const uris = await allResourceUris(client);
    expect(uris).not.toContain(NOTES_URI);
    expect((await errorOf(client.readResource({ uri: NOTES_URI }))).code).toBe(-32002);
  });

  it('relays resources list_changed and lists the new resource', async () => {
    const client = await clientAs();
    const seen: Notification[] = [];
    client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => void seen.push(n));
    await client.callTool({
      name: 'relay__add_resource',
      arguments: { uri: 'memo://later', text: 'added' },
    });
    await waitFor(() => seen.length > 0);
    await waitFor(async () =>
      (await allResourceUris(client)).includes('mcp+upstream://relay/memo%3A%2F%2Flater'),
    );
  });
});

describe('server-everything through the relay', () => {
  it('exposes its prompts and resources', async () => {
    const client = await clientAs();
    const prompts = (await allPrompts(client)).filter((p) => p.name.startsWith('everything__'));
    expect(prompts.length).toBeGreaterThan(0);
    const simple = prompts.find((p) => !(p.arguments ?? []).some((a) => a.required));
    expect(simple).toBeDefined();
    const rendered = await client.getPrompt({ name: simple!.name });
    expect(rendered.messages.length).toBeGreaterThan(0);

    const resources = await allResourceUris(client);
    const everything = resources.filter((uri) => uri.startsWith('mcp+upstream://everything/'));
    expect(everything.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: everything[0] });
    expect(read.contents[0].uri).toBe(everything[0]);
  });
});

describe('the relay over the stdio transport', () => {
  it('relays list_changed, progress, prompts and resources to an SDK client over stdio', async () => {
    const stdioDir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-relay-stdio-'));
    writeFileSync(
      join(stdioDir, 'relay.json'),
      JSON.stringify(relayUpstreamFile('relay', { relay: { prompts: true, resources: true } })),
    );
    const handle = await connectSdkClient({
      kind: 'stdio',
      fixtures: true,
      env: { MCP_SERVER_UPSTREAMS_REGISTRY_DIR: stdioDir },
    });
    handles.push(handle);
    try {
      const client = handle.client;
      // The fixture gateway has enough local tools to page tools/list.
      const toolNames = async () => {
        const names: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? undefined : { cursor });
          names.push(...page.tools.map((tool) => tool.name));
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return names;
      };
      await waitFor(async () => (await toolNames()).includes('relay__add_tool'), 60_000);
      const seen: Notification[] = [];
      client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void seen.push(n));
      await client.callTool({ name: 'relay__add_tool', arguments: { name: 'late', notify: true } });
      await waitFor(() => seen.length > 0);
      expect(await toolNames()).toContain('relay__late');

      const progress: number[] = [];
      await client.callTool({ name: 'relay__progress', arguments: { steps: 2 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      expect(progress[0]).toBe(1);

      await waitFor(async () => (await allPromptNames(client)).includes('relay__greet'));
      const prompt = await client.getPrompt({ name: 'relay__greet', arguments: { who: 'Lin' } });
      expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'Hello, Lin!' });
      await waitFor(async () => (await allResourceUris(client)).includes(NOTES_URI));
      const read = await client.readResource({ uri: NOTES_URI });
      expect(read.contents[0]).toMatchObject({ uri: NOTES_URI, text: 'first note' });
    } finally {
      rmSync(stdioDir, { recursive: true, force: true });
    }
  }, 90_000);
});
