/**
 * Resources of capability modules (ResourceProvider / ResourceProviders) next
 * to the built-in skills, and the tool API additions the conformance pack
 * uses (hand-written inputSchema, progress from 0), through the official SDK
 * client against the real gateway with the conformance fixture pack.
 */
import {
  CallToolResultSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type Progress,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { ResourceProviders } from '../../src/resources/resource-providers';
import { ResourceEntry } from '../../src/resources/resource-provider';
import {
  JSON_SCHEMA_TOOL_INPUT,
  PROGRESS_STEPS,
  STATIC_TEXT,
  TEST_PNG_BASE64,
  WATCHED_RESOURCE,
} from '../conformance/conformance-fixture.constants';
import {
  ConformanceGateway,
  startConformanceGateway,
} from '../conformance/conformance-http-gateway';
import { connectSdkClient, SdkClientHandle, waitUntil } from '../support/sdk-clients';
import { rpcError } from '../support/rpc-error';

const TEST_URIS = [STATIC_TEXT.uri, 'test://static-binary', WATCHED_RESOURCE.uri];

let gateway: ConformanceGateway;
const handles: SdkClientHandle[] = [];

beforeAll(async () => {
  gateway = await startConformanceGateway();
});

afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.dispose()));
});

afterAll(async () => {
  await gateway?.close();
});

async function connect(baseUrl = gateway.baseUrl): Promise<SdkClientHandle> {
  const handle = await connectSdkClient({ kind: 'streamable-http', baseUrl });
  handles.push(handle);
  return handle;
}

async function listAll(h: SdkClientHandle): Promise<Resource[]> {
  const all: Resource[] = [];
  let cursor: string | undefined;
  do {
    const page = await h.client.listResources(cursor === undefined ? {} : { cursor });
    all.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

/** A provider registered while clients are connected, with enough entries to need pages. */
class BulkProvider {
  readonly name = 'bulk';
  readonly schemes = ['bulk'];
  readonly supportsSubscriptions = false;
  readonly entries: ResourceEntry[] = Array.from({ length: 70 }, (_, i) => ({
    uri: `bulk://item/${i}`,
    name: `item-${i}`,
    mimeType: 'text/plain',
  }));

  list(): readonly ResourceEntry[] {
    return this.entries;
  }

  templates() {
    return [];
  }

  resolve(uri: string) {
    return {
      visibilityUri: uri,
      read: () => ({ contents: [{ uri, mimeType: 'text/plain', text: `bulk ${uri}` }] }),
    };
  }
}

describe('resources of several providers', () => {
  test('resources/list shows the skills first, then the test:// resources', async () => {
    const h = await connect();
    const uris = (await listAll(h)).map((r) => r.uri);
    const firstTest = uris.findIndex((uri) => uri.startsWith('test://'));
    expect(uris.slice(0, firstTest).every((uri) => uri.startsWith('skill://'))).toBe(true);
    expect(uris).toContain('skill://orders/place-order');
    expect(uris.slice(firstTest)).toEqual(TEST_URIS);
  });

  test('resources/templates/list merges both providers', async () => {
    const h = await connect();
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'skill://{category}/{name}',
      'skill://{category}/{name}/{+path}',
      'test://template/{id}/data',
    ]);
  });

  test('reads go to the provider of the scheme: text, binary and templated resources', async () => {
    const h = await connect();
    expect((await h.client.readResource({ uri: STATIC_TEXT.uri })).contents).toEqual([STATIC_TEXT]);
    expect((await h.client.readResource({ uri: 'test://static-binary' })).contents).toEqual([
      { uri: 'test://static-binary', mimeType: 'image/png', blob: TEST_PNG_BASE64 },
    ]);
    const [templated] = (await h.client.readResource({ uri: 'test://template/a%20b/data' }))
      .contents;
    expect(JSON.parse((templated as { text: string }).text)).toEqual({
      id: 'a b',
      templateTest: true,
      data: 'Data for ID: a b',
    });
    const skill = await h.client.readResource({ uri: 'skill://orders/place-order' });
    expect(skill.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
  });

  test('an unknown test:// resource is -32002; a scheme no provider serves is -32602', async () => {
    const h = await connect();
    const missing = await rpcError(h.client.readResource({ uri: 'test://no-such-thing' }));
    expect(missing.code).toBe(-32002);
    expect(missing.message).toContain('test://no-such-thing');
    const foreign = await rpcError(h.client.readResource({ uri: 'ftp://example/file' }));
    expect(foreign.code).toBe(-32602);
    expect(foreign.message).toContain('unsupported scheme "ftp" (served: skill://, test://)');
    const schemeless = await rpcError(h.client.readResource({ uri: 'static-text' }));
    expect(schemeless.code).toBe(-32602);
  });

  test('subscribers hear resourceUpdated for their URI until they unsubscribe', async () => {
    const h = await connect();
    const updates: string[] = [];
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    const providers = gateway.app.get(ResourceProviders);
    await h.client.subscribeResource({ uri: WATCHED_RESOURCE.uri });
    expect(providers.resourceUpdated(STATIC_TEXT.uri)).toBe(0);
    expect(providers.resourceUpdated(WATCHED_RESOURCE.uri)).toBe(1);
    await waitUntil(() => updates.length === 1, 'the updated notification');
    expect(updates).toEqual([WATCHED_RESOURCE.uri]);

    await h.client.unsubscribeResource({ uri: WATCHED_RESOURCE.uri });
    expect(providers.resourceUpdated(WATCHED_RESOURCE.uri)).toBe(0);
    const missing = await rpcError(h.client.subscribeResource({ uri: 'test://nothing-here' }));
    expect(missing.code).toBe(-32002);
  });

  test('a provider registered later is announced, paged with the rest, and read', async () => {
    const h = await connect();
    let announced = 0;
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      announced++;
    });
    const before = (await listAll(h)).length;
    gateway.app.get(ResourceProviders).register(new BulkProvider());
    await waitUntil(() => announced === 1, 'notifications/resources/list_changed');

    const first = await h.client.listResources();
    expect(first.resources).toHaveLength(50);
    expect(first.nextCursor).toBeDefined();
    const all = await listAll(h);
    expect(all).toHaveLength(before + 70);
    expect(all.slice(-70).map((r) => r.uri)).toEqual(
      Array.from({ length: 70 }, (_, i) => `bulk://item/${i}`),
    );
    expect((await h.client.readResource({ uri: 'bulk://item/69' })).contents[0]).toMatchObject({
      text: 'bulk bulk://item/69',
    });
    const refused = await rpcError(h.client.subscribeResource({ uri: 'bulk://item/1' }));
    expect(refused.code).toBe(-32602);
    expect(() => gateway.app.get(ResourceProviders).register(new BulkProvider())).toThrow(
      'URI scheme "bulk" is served by resource providers "bulk" and "bulk"',
    );
  });
});

describe('governance visibility covers every provider', () => {
  let governed: ConformanceGateway;

  beforeAll(async () => {
    governed = await startConformanceGateway({
      governance: { visibility: { allow: ['*'], deny: ['test://static-*'] } },
    });
  });

  afterAll(async () => {
    await governed?.close();
  });

  test('a denied test:// resource is neither listed nor readable nor subscribable', async () => {
    const h = await connect(governed.baseUrl);
    const uris = (await listAll(h)).map((r) => r.uri);
    expect(uris).not.toContain(STATIC_TEXT.uri);
    expect(uris).toContain(WATCHED_RESOURCE.uri);
    expect((await rpcError(h.client.readResource({ uri: STATIC_TEXT.uri }))).code).toBe(-32002);
    const subscribe = await rpcError(h.client.subscribeResource({ uri: STATIC_TEXT.uri }));
    expect(subscribe.code).toBe(-32002);
    expect((await h.client.readResource({ uri: WATCHED_RESOURCE.uri })).contents).toEqual([
      WATCHED_RESOURCE,
    ]);
  });
});

describe('tool API used by the conformance pack', () => {
  test('a hand-written inputSchema is listed exactly as written', async () => {
    const h = await connect();
    const { tools } = await h.client.listTools();
    const tool = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    expect(tool?.inputSchema).toEqual(JSON_SCHEMA_TOOL_INPUT);
  });

  test('and it is what tools/call checks the arguments against', async () => {
    const h = await connect();
    const ok = await h.client.callTool({
      name: 'json_schema_2020_12_tool',
      arguments: { name: 'Ada', address: { city: 'London' }, email: 'ada@example.org' },
    });
    expect(ok.content).toEqual([
      {
        type: 'text',
        text: 'JSON Schema 2020-12 tool called with: {"name":"Ada","address":{"city":"London"},"email":"ada@example.org"}',
      },
    ]);
    // The composition and conditional keywords are checked too: contact by phone needs a phone.
    const noPhone = await rpcError(
      h.client.callTool({
        name: 'json_schema_2020_12_tool',
        arguments: { contactMethod: 'phone', email: 'ada@example.org' },
      }),
    );
    expect(noPhone.code).toBe(-32602);
    expect(JSON.stringify(noPhone.data)).toContain('phone');
    const bad = await rpcError(
      h.client.callTool({
        name: 'json_schema_2020_12_tool',
        arguments: { nickname: 'x', address: { city: 5 } },
      }),
    );
    expect(bad.code).toBe(-32602);
    expect(bad.data).toMatchObject({
      tool: 'json_schema_2020_12_tool',
      errors: expect.arrayContaining([
        { field: 'nickname', problems: ['property should not exist'] },
        { field: 'address.city', problems: ['must be string'] },
      ]),
    });
  });

  test('progress may start at 0', async () => {
    const h = await connect();
    const progress: Progress[] = [];
    await h.client.request(
      { method: 'tools/call', params: { name: 'test_tool_with_progress', arguments: {} } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p) },
    );
    expect(progress.map((p) => [p.progress, p.total])).toEqual(
      PROGRESS_STEPS.map((step) => [step, 100]),
    );
  });
});
