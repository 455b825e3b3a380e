import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageRequestSchema,
  CreateMessageResult,
  ElicitRequest,
  ElicitRequestSchema,
  ElicitResult,
  isJSONRPCNotification,
  isJSONRPCRequest,
  JSONRPCMessage,
  ListToolsResult,
  Progress,
  Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { setTimeout as delay } from 'node:timers/promises';
import { SessionRegistry } from '../../src/session/session.registry';
import { encodeCursor } from '../../src/tools/list-cursor';
import {
  BULK_TOOL_COUNT,
  bulkToolName,
  ELICIT_SCHEMA,
  FixtureToolCounters,
  MEDIA_CONTENT,
  TINY_PNG_BASE64,
  TINY_WAV_BASE64,
} from '../fixtures/tools-fixture.capability';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClients, SdkClientHandle, waitUntil } from '../support/sdk-clients';
import { errorData, rpcError } from '../support/rpc-error';

/**
 * The tools surface (tools/list, tools/call) through the official MCP SDK
 * client, each scenario written once and run over stdio (a spawned fixture
 * gateway) and Streamable HTTP (the gateway in this process).
 */

// Streamable HTTP first: its scenarios run while the stdio children are still compiling.
const KINDS = ['streamable-http', 'stdio'] as const;
type Kind = (typeof KINDS)[number];

const PAGE_SIZE = 100;
const FX_PUBLIC_TOOLS = [
  'fx_add',
  'fx_counted',
  'fx_counter',
  'fx_sleep',
  'fx_throw',
  'fx_is_error',
  'fx_media',
  'fx_progress',
  'fx_sample',
  'fx_elicit',
  'fx_register',
  'fx_unregister',
];
const INCIDENT = /incident ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/;
const SAMPLED: CreateMessageResult = {
  model: 'e2e-model',
  role: 'assistant',
  content: { type: 'text', text: 'sampled by the e2e client' },
};
const ELICITED: ElicitResult = { action: 'accept', content: { name: 'Ada' } };

const VALID_COUNTED = {
  name: 'alice',
  count: 3,
  mode: 'fast',
  owner: { id: 'o-1' },
  tags: ['a', 'b'],
};

/** One refused fx_counted call per kind of validation failure, with the fields it must name. */
const VALIDATION_FAILURES: Array<{
  kind: string;
  args: Record<string, unknown>;
  fields: string[];
}> = [
  { kind: 'missing field', args: omit(VALID_COUNTED, 'name'), fields: ['name'] },
  { kind: 'wrong type', args: { ...VALID_COUNTED, count: 'three' }, fields: ['count'] },
  { kind: 'out of range', args: { ...VALID_COUNTED, count: 11 }, fields: ['count'] },
  { kind: 'too short', args: { ...VALID_COUNTED, name: 'al' }, fields: ['name'] },
  { kind: 'bad enum', args: { ...VALID_COUNTED, mode: 'turbo' }, fields: ['mode'] },
  {
    kind: 'nested field wrong',
    args: { ...VALID_COUNTED, owner: { id: 42 } },
    fields: ['owner.id'],
  },
  { kind: 'array element wrong', args: { ...VALID_COUNTED, tags: ['a', 7] }, fields: ['tags'] },
  { kind: 'unknown extra property', args: { ...VALID_COUNTED, extra: true }, fields: ['extra'] },
  {
    kind: 'several at once',
    args: { ...omit(VALID_COUNTED, 'mode'), count: 0, owner: {} },
    fields: ['count', 'mode', 'owner.id'],
  },
];

function omit<T extends Record<string, unknown>>(value: T, key: keyof T): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...value };
  delete copy[key as string];
  return copy;
}

interface ClientPair {
  /** No client capabilities. */
  plain: SdkClientHandle;
  /** Declares sampling and elicitation. */
  capable: SdkClientHandle;
}

let gateway: HttpGatewayHandle;
const pairs = new Map<Kind, Promise<ClientPair>>();

/** Both clients of a transport, connected once and shared by its scenarios. */
function clientsFor(kind: Kind): Promise<ClientPair> {
  let pair = pairs.get(kind);
  if (!pair) {
    const baseUrl = kind === 'stdio' ? undefined : gateway.baseUrl;
    pair = connectSdkClients([
      { kind, baseUrl, fixtures: true },
      { kind, baseUrl, fixtures: true, capabilities: { sampling: {}, elicitation: {} } },
    ]).then(([plain, capable]) => ({ plain, capable }));
    pairs.set(kind, pair);
    // Awaited (and its failure reported) by the describe that uses it.
    pair.catch(() => undefined);
  }
  return pair;
}

beforeAll(async () => {
  // A stdio fixture gateway compiles the sources on start (~10 s): begin at once, await later.
  void clientsFor('stdio');
  gateway = await startHttpGateway({ fixtures: true });
});

afterAll(async () => {
  const settled = await Promise.allSettled(pairs.values());
  await Promise.all(
    settled.flatMap((s) =>
      s.status === 'fulfilled' ? [s.value.plain.dispose(), s.value.capable.dispose()] : [],
    ),
  );
  await gateway?.close();
}, 60_000);

/** The single text block of a result, parsed as JSON. */
function jsonText(result: CallToolResult): unknown {
  expect(result.content).toHaveLength(1);
  const [block] = result.content;
  if (block?.type !== 'text')
    throw new Error(`expected one text block, got ${JSON.stringify(result)}`);
  return JSON.parse(block.text) as unknown;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function readCounters(client: Client): Promise<FixtureToolCounters> {
  return jsonText(await call(client, 'fx_counter')) as FixtureToolCounters;
}

async function listAllTools(client: Client): Promise<ListToolsResult[]> {
  const pages: ListToolsResult[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 20);
  expect(cursor).toBeUndefined();
  return pages;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await listAllTools(client)).flatMap((page) => page.tools.map((t) => t.name));
}

function toolsCallIds(h: SdkClientHandle, toolName: string): Array<string | number> {
  return h.wire.sent
    .filter(isJSONRPCRequest)
    .filter((m) => m.method === 'tools/call' && m.params?.name === toolName)
    .map((m) => m.id);
}

function answersTo(h: SdkClientHandle, id: string | number): JSONRPCMessage[] {
  return h.wire.received.filter((m) => !('method' in m) && 'id' in m && m.id === id);
}

describe.each(KINDS)('tools over %s (official SDK client)', (kind: Kind) => {
  /** No client capabilities. */
  let plain: SdkClientHandle;
  /** Declares sampling and elicitation and answers both. */
  let capable: SdkClientHandle;
  const sampled: Array<CreateMessageRequest['params']> = [];
  const elicited: Array<ElicitRequest['params']> = [];

  beforeAll(async () => {
    ({ plain, capable } = await clientsFor(kind));
    capable.client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      sampled.push(request.params);
      return SAMPLED;
    });
    capable.client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request.params);
      return ELICITED;
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([plain?.dispose(), capable?.dispose()]);
  });

  test('the server declares tools with listChanged', () => {
    expect(plain.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });

  test('tools/list paginates past 100: unique names, no hidden tool, object input schemas', async () => {
    const pages = await listAllTools(plain.client);
    const tools: Tool[] = pages.flatMap((page) => page.tools);
    const names = tools.map((t) => t.name);

    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]?.tools).toHaveLength(PAGE_SIZE);
    for (const page of pages) expect(page.tools.length).toBeLessThanOrEqual(PAGE_SIZE);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(BULK_TOOL_COUNT + FX_PUBLIC_TOOLS.length);
    expect(names).toEqual(
      expect.arrayContaining([
        ...FX_PUBLIC_TOOLS,
        ...Array.from({ length: BULK_TOOL_COUNT }, (_, i) => bulkToolName(i)),
      ]),
    );
    expect(names).not.toContain('fx_hidden');
    for (const tool of tools) {
      expect({ name: tool.name, type: tool.inputSchema.type }).toEqual({
        name: tool.name,
        type: 'object',
      });
    }
    // The DTO's fields are the published schema's properties.
    const counted = tools.find((t) => t.name === 'fx_counted');
    expect(Object.keys(counted?.inputSchema.properties ?? {}).sort()).toEqual([
      'count',
      'mode',
      'name',
      'owner',
      'tags',
    ]);
    expect(tools.find((t) => t.name === 'fx_add')?.outputSchema).toMatchObject({
      type: 'object',
      properties: { sum: expect.any(Object) },
    });
  });

  test('a bad cursor is -32602', async () => {
    for (const cursor of ['not-a-cursor', encodeCursor(1_000_000)]) {
      const err = await rpcError(plain.client.listTools({ cursor }));
      expect({ cursor, code: err.code }).toEqual({ cursor, code: -32602 });
    }
  });

  test('fx_add returns structuredContent {sum} and a text block', async () => {
    const result = await call(plain.client, 'fx_add', { a: 2, b: 3.5 });

    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ sum: 5.5 });
    expect(jsonText(result)).toEqual({ sum: 5.5 });
  });

  test('every validation failure of fx_counted is -32602 naming the field(s); the handler never runs', async () => {
    const before = await readCounters(plain.client);

    for (const { kind: failure, args, fields } of VALIDATION_FAILURES) {
      const err = await rpcError(call(plain.client, 'fx_counted', args));
      const data = errorData(err);
      const named = ((data.errors ?? []) as Array<{ field: string }>).map((e) => e.field).sort();
      expect({ failure, code: err.code, tool: data.tool, fields: named }).toEqual({
        failure,
        code: -32602,
        tool: 'fx_counted',
        fields,
      });
      for (const field of fields) expect(err.message).toContain(field);
    }

    const after = await readCounters(plain.client);
    expect(after.counted).toBe(before.counted);
    // The same tool with valid arguments does run (the counter is live).
    expect(jsonText(await call(plain.client, 'fx_counted', VALID_COUNTED))).toEqual({
      counted: before.counted + 1,
      name: 'alice',
      owner: 'o-1',
    });
    expect((await readCounters(plain.client)).counted).toBe(before.counted + 1);
  });

  test('an unknown tool and a hidden tool are both -32001, whatever the arguments', async () => {
    for (const [name, args] of [
      ['fx_no_such_tool', {}],
      ['fx_hidden', {}],
      // Not -32602: a hidden tool's schema must not leak through its validation errors.
      ['fx_hidden', { bogus: 1 }],
    ] as const) {
      const err = await rpcError(call(plain.client, name, args));
      expect({ name, code: err.code, tool: errorData(err).tool }).toEqual({
        name,
        code: -32001,
        tool: name,
      });
    }
  });

  test('fx_sleep past its 1 s timeout is -32004, not before 1 s, and the handler saw the abort', async () => {
    const before = await readCounters(plain.client);
    const started = Date.now();

    // 60 s outlasts this test's own timeout: the -32004 can only be the deadline's answer,
    // never one sent after the sleep ran to completion.
    const err = await rpcError(call(plain.client, 'fx_sleep', { ms: 60_000 }));
    const elapsed = Date.now() - started;

    expect(err.code).toBe(-32004);
    // The deadline is honoured, not cut short (a lower bound: a loaded machine only adds to it).
    expect(elapsed).toBeGreaterThanOrEqual(900);
    const after = await readCounters(plain.client);
    expect(after.sleepStarted).toBe(before.sleepStarted + 1);
    expect(after.sleepAborted).toBe(before.sleepAborted + 1);
    expect(after.lastAbortReason?.code).toBe(-32004);
  });

  test('a thrown Error is -32005 with an incident id and without its message', async () => {
    const err = await rpcError(call(plain.client, 'fx_throw'));

    expect(err.code).toBe(-32005);
    const incident = INCIDENT.exec(err.message);
    expect(incident).not.toBeNull();
    expect(errorData(err).incident_id).toBe(incident?.[1]);
    expect(JSON.stringify({ message: err.message, data: err.data })).not.toContain('hunter2');
  });

  test('a ToolError message passes through as -32005', async () => {
    const err = await rpcError(call(plain.client, 'fx_throw', { toolError: true }));

    expect(err.code).toBe(-32005);
    expect(err.message).toContain('visible message');
    expect(err.message).not.toMatch(INCIDENT);
    expect(errorData(err)).toMatchObject({ hint: 'fixture' });
  });

  test('an isError result is a result, not a JSON-RPC error', async () => {
    const result = await call(plain.client, 'fx_is_error');

    expect(result).toEqual({ content: [{ type: 'text', text: 'bad input' }], isError: true });
  });

  test('cancelling fx_sleep aborts the handler and gets no response', async () => {
    const before = await readCounters(plain.client);
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = plain.client.callTool(
      { name: 'fx_sleep', arguments: { ms: 5_000 } },
      undefined,
      {
        signal: controller.signal,
      },
    );
    await delay(200);
    const [id] = toolsCallIds(plain, 'fx_sleep').slice(-1);
    controller.abort(new Error('e2e cancel'));

    await expect(sleeping).rejects.toThrow('e2e cancel');
    // Past the tool's 1 s timeout: had the cancellation been ignored, a -32004 would be on the wire by now.
    await delay(Math.max(0, 1_500 - (Date.now() - started)));
    await expect(plain.client.ping()).resolves.toEqual({});
    expect(id).toBeDefined();
    expect(answersTo(plain, id ?? -1)).toEqual([]);
    expect(plain.wire.sent).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'Error: e2e cancel' },
    });
    const after = await readCounters(plain.client);
    expect(after.sleepStarted).toBe(before.sleepStarted + 1);
    expect(after.sleepAborted).toBe(before.sleepAborted + 1);
    expect(after.lastAbortReason?.message).toContain('cancel');
  });

  test('fx_progress: progress 1..n strictly increasing, in order, before the result', async () => {
    const steps = 5;
    const events: string[] = [];
    const delivered: Progress[] = [];

    const result = (await plain.client.callTool(
      { name: 'fx_progress', arguments: { steps } },
      undefined,
      {
        onprogress: (p) => {
          delivered.push(p);
          events.push(`progress ${p.progress}`);
        },
      },
    )) as CallToolResult;
    events.push('result');

    expect(jsonText(result)).toEqual({ steps });
    // The gateway's side, as the transport handed messages to the client, in order.
    const request = plain.wire.sent
      .filter(isJSONRPCRequest)
      .filter((m) => m.method === 'tools/call' && m.params?.name === 'fx_progress')
      .at(-1);
    const token = request?.params?._meta?.progressToken;
    expect(token).toBeDefined();
    const onWire = plain.wire.received.flatMap((m) => {
      if (isJSONRPCNotification(m) && m.method === 'notifications/progress') {
        const params = m.params ?? {};
        return params.progressToken === token
          ? [`progress ${String(params.progress)}/${String(params.total)}`]
          : [];
      }
      return !('method' in m) && 'id' in m && m.id === request?.id ? ['result'] : [];
    });
    expect(onWire).toEqual([
      'progress 1/5',
      'progress 2/5',
      'progress 3/5',
      'progress 4/5',
      'progress 5/5',
      'result',
    ]);
    // What the SDK passed to onprogress: strictly increasing values of 1..n, all before the result.
    // (The SDK may drop the last ones when they share a read with the response: see the report.)
    const values = delivered.map((p) => p.progress);
    expect(
      values.every(
        (v, i) =>
          Number.isInteger(v) && v >= 1 && v <= steps && (i === 0 || v > (values[i - 1] ?? 0)),
      ),
    ).toBe(true);
    expect(delivered.every((p) => p.total === steps)).toBe(true);
    expect(events.at(-1)).toBe('result');
    expect(events.filter((e) => e === 'result')).toHaveLength(1);
  });

  test('sampling round trip: the tool gets the client answer', async () => {
    sampled.length = 0;

    const result = await call(capable.client, 'fx_sample', { prompt: 'say hi' });

    expect(jsonText(result)).toEqual({ answer: SAMPLED });
    expect(sampled).toEqual([
      expect.objectContaining({
        messages: [{ role: 'user', content: { type: 'text', text: 'say hi' } }],
        maxTokens: 10,
      }),
    ]);
  });

  test('elicitation round trip: the tool gets the user answer', async () => {
    elicited.length = 0;

    const result = await call(capable.client, 'fx_elicit', { message: 'Who are you?' });

    expect(jsonText(result)).toEqual({ answer: ELICITED });
    expect(elicited).toEqual([
      expect.objectContaining({ message: 'Who are you?', requestedSchema: ELICIT_SCHEMA }),
    ]);
  });

  test('sampling and elicitation without the client capability are -32005 naming it', async () => {
    for (const [tool, args, capability] of [
      ['fx_sample', { prompt: 'say hi' }, 'sampling'],
      ['fx_elicit', { message: 'Who are you?' }, 'elicitation'],
    ] as const) {
      const err = await rpcError(call(plain.client, tool, args));
      expect({ tool, code: err.code, capability: errorData(err).capability }).toEqual({
        tool,
        code: -32005,
        capability,
      });
      expect(err.message).toContain(capability);
    }
    // The client was never asked.
    const asked = plain.wire.received.filter(isJSONRPCRequest).map((m) => m.method);
    expect(asked).not.toContain('sampling/createMessage');
    expect(asked).not.toContain('elicitation/create');
  });

  test('fx_media: every content type exactly as the tool returned it', async () => {
    const result = await call(plain.client, 'fx_media');

    expect(result.content).toEqual(MEDIA_CONTENT);
    expect(result.isError ?? false).toBe(false);
    // The payloads are real media files.
    const png = Buffer.from(TINY_PNG_BASE64, 'base64');
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const wav = Buffer.from(TINY_WAV_BASE64, 'base64');
    expect([wav.toString('ascii', 0, 4), wav.toString('ascii', 8, 12)]).toEqual(['RIFF', 'WAVE']);
    // And the wire carried exactly those blocks (no SDK normalisation in between).
    const [id] = toolsCallIds(plain, 'fx_media').slice(-1);
    const [answer] = answersTo(plain, id ?? -1);
    expect(answer).toMatchObject({ result: { content: MEDIA_CONTENT } });
  });

  test('fx_register: the client hears tools/list_changed and the next list has the tool', async () => {
    const name = `fx_runtime_${kind.replace('-', '_')}`;
    let changes = 0;
    plain.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    if (kind === 'streamable-http') {
      // Notifications outside a request ride the standalone GET stream, opened after initialized.
      const sessions = gateway.app.get(SessionRegistry);
      await waitUntil(
        () => sessions.get(plain.serverSessionId ?? '')?.hasStandaloneStream() === true,
        'the standalone GET stream',
      );
    }

    expect(jsonText(await call(plain.client, 'fx_register', { name }))).toEqual({
      registered: name,
    });
    await waitUntil(() => changes >= 1, 'notifications/tools/list_changed after fx_register');
    expect(await toolNames(plain.client)).toContain(name);
    expect((await call(plain.client, name)).content).toEqual([
      { type: 'text', text: `generated ${name} ran` },
    ]);

    expect(jsonText(await call(plain.client, 'fx_unregister', { name }))).toEqual({
      removed: true,
    });
    await waitUntil(() => changes >= 2, 'notifications/tools/list_changed after fx_unregister');
    expect(await toolNames(plain.client)).not.toContain(name);
    expect((await rpcError(call(plain.client, name))).code).toBe(-32001);
  });

  test('a long call never blocks: ping and fx_add answer while fx_sleep runs', async () => {
    const order: string[] = [];
    const sleeping = call(plain.client, 'fx_sleep', { ms: 700 }).then((result) => {
      order.push('sleep');
      return result;
    });
    const pinged = plain.client.ping().then(() => order.push('ping'));
    const added = call(plain.client, 'fx_add', { a: 1, b: 1 }).then((result) => {
      order.push('add');
      return result;
    });

    await Promise.all([pinged, added]);
    expect([...order].sort()).toEqual(['add', 'ping']);
    expect((await added).structuredContent).toEqual({ sum: 2 });
    expect(jsonText(await sleeping)).toEqual({ slept: 700 });
    expect(order.at(-1)).toBe('sleep');
  });

  test('no client-side errors were reported on either connection', () => {
    // Except the SDK's own progress race: it handles notifications a microtask late but
    // responses at once, so progress read together with its response finds its handler gone.
    // The wire order (progress before result) is asserted in the fx_progress scenario.
    const sdkProgressRace = /^Received a progress notification for an unknown token/;
    const errors = [...plain.errors, ...capable.errors].map((e) => e.message);
    expect(errors.filter((message) => !sdkProgressRace.test(message))).toEqual([]);
  });
});
