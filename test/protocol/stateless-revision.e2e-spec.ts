import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient } from '../support/sdk-clients';
import { readLedgerRows } from '../support/sqlite-ledger';
import { messageOf, openSse, SseConnection } from '../support/sse-client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { CLI_ENTRY } from '../support/stdio-process';
import { tempLedgerPath } from '../support/test-defaults';
import { SessionRegistry } from '../../src/session/session.registry';
import { ToolRegistry } from '../../src/tools/tool.registry';
import { generatedTool } from '../fixtures/tools-fixture.capability';

/**
 * MCP 2026-07-28, the stateless revision (#17), on the same /mcp endpoint as
 * the session-based ones: requests carry their revision and capabilities in
 * `_meta`, and run through the same identity, governance and ledger as a
 * session's. The real clients are the SDK v2 client (modern) and the SDK v1
 * client (2025-11-25) against one running gateway; the wire rules are
 * checked with raw requests.
 */
const MODERN = '2026-07-28';
const PER_MINUTE = 4;
/** limits.sse_streams_per_client: how many listen streams one client may hold. */
const LISTEN_CAP = 2;

interface LedgerRow {
  client_id: string;
  session_id: string;
  transport: string;
  method: string;
  target: string;
  outcome: string;
}

/** Every page of tools/list, through either SDK's client. */
async function allToolNames(client: {
  listTools(params?: {
    cursor?: string;
  }): Promise<{ tools: Array<{ name: string }>; nextCursor?: string }>;
}): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  // Bounded: the fixture gateway lists a few hundred tools at most.
  for (let page = 0; page < 20; page++) {
    const listed = await client.listTools(cursor === undefined ? undefined : { cursor });
    names.push(...listed.tools.map((tool) => tool.name));
    cursor = listed.nextCursor;
    if (cursor === undefined) return names;
  }
  throw new Error('tools/list did not end within 20 pages');
}

describe('MCP 2026-07-28 beside the session-based revisions', () => {
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    gateway = await startHttpGateway({
      fixtures: true,
      config: {
        governance: { default_quota: { max_calls_per_minute: PER_MINUTE } },
        limits: { sse_streams_per_client: LISTEN_CAP },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
  });

  const meta = (extra: Record<string, unknown> = {}) => ({
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
    ...extra,
  });

  /** One raw POST: the body and headers as given, nothing added but the content types. */
  async function post(body: unknown, headers: Record<string, string>) {
    const response = await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  }

  /** A well-formed modern request with its mirrored headers. */
  function modern(method: string, params: Record<string, unknown> = {}, clientId = 'raw') {
    const name = (params.name ?? params.uri) as string | undefined;
    return post(
      { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta() } },
      {
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        'x-mcp-client-id': clientId,
        ...(name === undefined ? {} : { 'mcp-name': name }),
      },
    );
  }

  it('serves the SDK v2 client statelessly while an SDK v1 client keeps its session', async () => {
    const legacy = await connectSdkClient({
      kind: 'streamable-http',
      baseUrl: gateway.baseUrl,
      headers: { 'X-MCP-Client-ID': 'v1-client' },
    });
    const seen: Array<{ httpMethod: string; headers: Headers; body: string }> = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      seen.push({
        httpMethod: init?.method ?? 'GET',
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : '',
      });
      return fetch(input, init);
    };
    // 'auto': probe with server/discover, modern when the gateway answers as a 2026-07-28 server.
    const client = new ClientV2(
      { name: 'v2-client', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(
      new HttpV2(new URL(`${gateway.baseUrl}/mcp`), {
        fetch: recordingFetch,
        requestInit: { headers: { 'X-MCP-Client-ID': 'v2-client' } },
      }),
    );
    try {
      const [modernTools, legacyTools] = await Promise.all([
        allToolNames(client),
        allToolNames(legacy.client),
      ]);
      expect(modernTools).toEqual(legacyTools);
      const [sum, legacySum] = await Promise.all([
        client.callTool({ name: 'fx_add', arguments: { a: 2, b: 3 } }),
        legacy.client.callTool({ name: 'fx_add', arguments: { a: 4, b: 5 } }),
      ]);
      expect(sum.structuredContent).toEqual({ sum: 5 });
      expect(legacySum.structuredContent).toEqual({ sum: 9 });

      // subscriptions/listen through the SDK: the list change reaches its notification handler.
      let changes = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        changes++;
      });
      const subscription = await client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
      const tools = gateway.app.get(ToolRegistry);
      tools.register(generatedTool('fx_v2_listened'));
      tools.unregister('fx_v2_listened');
      await waitFor(() => changes > 0);
      await subscription.close();
      expect(await subscription.closed).toBe('local');

      // The v2 client spoke 2026-07-28: no initialize, no session id, the revision on every request.
      const bodies = seen
        .filter((s) => s.body !== '')
        .map(
          (s) =>
            JSON.parse(s.body) as { method?: string; params?: { _meta?: Record<string, unknown> } },
        );
      expect(bodies.some((b) => b.method === 'initialize')).toBe(false);
      expect(bodies[0].method).toBe('server/discover');
      expect(seen.every((s) => s.httpMethod === 'POST')).toBe(true);
      expect(seen.every((s) => s.headers.get('mcp-session-id') === null)).toBe(true);
      const calls = bodies.filter((b) => b.method === 'tools/call');
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        expect(call.params?._meta?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
      }
    } finally {
      await client.close();
      await legacy.dispose();
    }

    // Both are in the one ledger, each under its own client; the stateless call under a session of its own.
    const v2Rows = readLedgerRows<LedgerRow>(gateway.config.ledger.sqlite_path, 'v2-client');
    const v1Rows = readLedgerRows<LedgerRow>(gateway.config.ledger.sqlite_path, 'v1-client');
    expect(v2Rows.filter((r) => r.target === 'fx_add')).toHaveLength(1);
    expect(v1Rows.filter((r) => r.target === 'fx_add')).toHaveLength(1);
    expect(v2Rows[0]).toMatchObject({ transport: 'streamable-http', outcome: 'success' });
  });

  it('answers server/discover with every revision, the capabilities, its identity and caching hints', async () => {
    const { status, text } = await modern('server/discover');
    expect(status).toBe(200);
    const { result } = JSON.parse(text) as { result: Record<string, unknown> };
    expect(result).toMatchObject({
      resultType: 'complete',
      supportedVersions: [MODERN, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: expect.any(Object), resources: expect.any(Object) },
      cacheScope: 'public',
      ttlMs: 60_000,
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'owlclaw-mcp-gateway' } },
    });
  });

  it('marks lists private to the caller (they follow its visibility) and every result complete', async () => {
    const { text } = await modern('tools/list');
    const { result } = JSON.parse(text) as { result: Record<string, unknown> };
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 60_000 });
  });

  it('refuses a request without its _meta fields: 400, -32602, the request id kept', async () => {
    for (const drop of [
      'io.modelcontextprotocol/protocolVersion',
      'io.modelcontextprotocol/clientCapabilities',
    ]) {
      const params = { _meta: { ...meta(), [drop]: undefined } };
      const { status, text } = await post(
        { jsonrpc: '2.0', id: 'm1', method: 'tools/list', params },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      );
      expect(status).toBe(400);
      const body = JSON.parse(text) as { id: unknown; error: { code: number; message: string } };
      expect(body.id).toBe('m1');
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toContain(drop);
    }
  });

  it('refuses headers that disagree with the body: 400, -32020 (Mcp-Name Base64 decoded first)', async () => {
    const params = { name: 'fx_add', arguments: { a: 1, b: 1 }, _meta: meta() };
    const body = { jsonrpc: '2.0', id: 3, method: 'tools/call', params };
    const base = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' };
    const cases: Array<Record<string, string>> = [
      { ...base, 'mcp-name': 'fx_echo' },
      { ...base },
      { ...base, 'mcp-method': 'tools/list', 'mcp-name': 'fx_add' },
      { ...base, 'mcp-protocol-version': '2025-11-25', 'mcp-name': 'fx_add' },
    ];
    for (const headers of cases) {
      const { status, text } = await post(body, headers);
      expect({
        status,
        code: (JSON.parse(text) as { error: { code: number } }).error.code,
      }).toEqual({
        status: 400,
        code: -32020,
      });
    }
    const encoded = `=?base64?${Buffer.from('fx_add').toString('base64')}?=`;
    const accepted = await post(body, { ...base, 'mcp-name': encoded, 'x-mcp-client-id': 'b64' });
    expect(accepted.status).toBe(200);
    expect(JSON.parse(accepted.text)).toMatchObject({ result: { structuredContent: { sum: 2 } } });
  });

  it('refuses a revision it does not serve with -32022, listing the ones it does', async () => {
    const params = {
      _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '1900-01-01' },
    };
    const { status, text } = await post(
      { jsonrpc: '2.0', id: 9, method: 'tools/list', params },
      { 'mcp-protocol-version': '1900-01-01', 'mcp-method': 'tools/list' },
    );
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({
      id: 9,
      error: {
        code: -32022,
        data: { requested: '1900-01-01', supported: expect.arrayContaining([MODERN]) },
      },
    });
  });

  it('answers the methods 2026-07-28 removed with 404 and -32601, and never mints a session', async () => {
    for (const method of ['ping', 'initialize', 'logging/setLevel', 'resources/subscribe']) {
      const { status, headers, text } = await post(
        { jsonrpc: '2.0', id: 1, method, params: { _meta: meta() } },
        {
          'mcp-protocol-version': MODERN,
          'mcp-method': method,
          'mcp-session-id': randomUUID(),
        },
      );
      expect({
        method,
        status,
        code: (JSON.parse(text) as { error: { code: number } }).error.code,
      }).toEqual({
        method,
        status: 404,
        code: -32601,
      });
      expect(headers.get('mcp-session-id')).toBeNull();
    }
  });

  it('answers a missing resource with -32602 and its uri', async () => {
    const uri = 'skill://no-such/skill';
    const { text } = await modern('resources/read', { uri });
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32602, data: { uri } } });
  });

  it('sends log messages only to a request that asked for them in its _meta', async () => {
    const ask = async (logLevel?: string) => {
      const { text } = await post(
        {
          jsonrpc: '2.0',
          id: 5,
          method: 'fixture/notify',
          params: {
            count: 1,
            _meta: meta(logLevel ? { 'io.modelcontextprotocol/logLevel': logLevel } : {}),
          },
        },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'fixture/notify' },
      );
      const answer = text.includes('data: ')
        ? text
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map(
              (line) => JSON.parse(line.slice(6)) as { id?: number; result?: { logged: string[] } },
            )
            .find((message) => message.id === 5)
        : (JSON.parse(text) as { result?: { logged: string[] } });
      return answer?.result?.logged;
    };
    expect(await ask()).toEqual([]);
    expect(await ask('warning')).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
  });

  it('applies the per-client rate limit across stateless requests exactly as across a session', async () => {
    const clientId = `limited-${randomUUID().slice(0, 8)}`;
    const outcomes: string[] = [];
    for (let i = 0; i < PER_MINUTE + 2; i++) {
      const { text } = await modern(
        'tools/call',
        { name: 'fx_add', arguments: { a: i, b: 0 } },
        clientId,
      );
      const body = JSON.parse(text) as { result?: unknown; error?: { code: number } };
      outcomes.push(body.result ? 'ok' : `error ${body.error?.code}`);
    }
    expect(outcomes).toEqual([
      ...Array<string>(PER_MINUTE).fill('ok'),
      'error -32003',
      'error -32003',
    ]);
    const rows = readLedgerRows<LedgerRow>(gateway.config.ledger.sqlite_path, clientId);
    expect(rows.map((r) => r.outcome).sort()).toEqual(
      [...Array<string>(PER_MINUTE).fill('success'), 'denied', 'denied'].sort(),
    );
    // Each stateless request ran on a session of its own.
    expect(new Set(rows.map((r) => r.session_id)).size).toBe(rows.length);
  });

  /** A subscriptions/listen stream, opened raw so that every frame can be inspected. */
  function listen(id: number, notifications: object, clientId: string): Promise<SseConnection> {
    return openSse(
      `${gateway.baseUrl}/mcp`,
      {
        'mcp-protocol-version': MODERN,
        'mcp-method': 'subscriptions/listen',
        'x-mcp-client-id': clientId,
      },
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications, _meta: meta() },
      }),
    );
  }

  it('streams what subscriptions/listen opted in to, tagged, after the acknowledgement, until the client leaves', async () => {
    const clientId = `listener-${randomUUID().slice(0, 8)}`;
    const registry = gateway.app.get(SessionRegistry);
    const before = registry.size;
    const stream = await listen(
      41,
      { toolsListChanged: true, resourceSubscriptions: ['skill://no-such/skill', 'nope://x'] },
      clientId,
    );
    expect(stream.status).toBe(200);
    const first = messageOf(await stream.next(() => true));
    // The acknowledgement comes first; URIs it cannot watch are left out of it.
    expect(first).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: [] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 41 },
      },
    });
    expect(registry.size).toBe(before + 1);

    const tools = gateway.app.get(ToolRegistry);
    tools.register(generatedTool('fx_listened'));
    tools.unregister('fx_listened');
    const changed = await stream.next(
      (event) => messageOf(event).method === 'notifications/tools/list_changed',
    );
    expect(messageOf(changed).params).toEqual({
      _meta: { 'io.modelcontextprotocol/subscriptionId': 41 },
    });
    expect(
      stream.events.some(
        (event) =>
          messageOf(event).method !== 'notifications/tools/list_changed' &&
          event !== stream.events[0],
      ),
    ).toBe(false);

    await stream.abort();
    await waitFor(() => registry.size === before);
  });

  it(`holds at most limits.sse_streams_per_client (${LISTEN_CAP}) listen streams per client`, async () => {
    const clientId = `many-listeners-${randomUUID().slice(0, 8)}`;
    const held = await Promise.all(
      Array.from({ length: LISTEN_CAP }, (_, i) =>
        listen(50 + i, { toolsListChanged: true }, clientId),
      ),
    );
    try {
      for (const stream of held) await stream.next(() => true);
      const refused = await listen(60, { toolsListChanged: true }, clientId);
      await refused.ended;
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('limits.sse_streams_per_client');
    } finally {
      await Promise.all(held.map((stream) => stream.abort()));
    }
  });

  it('checks Mcp-Param-* headers against the arguments a tool mirrors (x-mcp-header)', async () => {
    gateway.app.get(ToolRegistry).register({
      ...generatedTool('fx_regional'),
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          note: { type: 'string' },
        },
      },
      validate: (args) => Promise.resolve(args),
    });
    const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
      post(
        {
          jsonrpc: '2.0',
          id: 71,
          method: 'tools/call',
          params: { name: 'fx_regional', arguments: args, _meta: meta() },
        },
        {
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': 'fx_regional',
          ...headers,
        },
      );
    const codeOf = (text: string) => (JSON.parse(text) as { error?: { code: number } }).error?.code;

    const matching = await call(
      { region: 'eu-west', priority: 3, note: 'x' },
      { 'mcp-param-region': 'eu-west', 'mcp-param-priority': '3.0' },
    );
    expect({ status: matching.status, code: codeOf(matching.text) }).toEqual({
      status: 200,
      code: undefined,
    });
    const unicode = await call(
      { region: 'Zürich' },
      { 'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=` },
    );
    expect(unicode.status).toBe(200);
    // A null or absent argument needs no header.
    expect((await call({ region: null }, {})).status).toBe(200);

    const wrongHeaders: Array<Record<string, string>> = [
      {},
      { 'mcp-param-region': 'us-east' },
      { 'mcp-param-region': '=?base64?!!?=' },
    ];
    for (const headers of wrongHeaders) {
      const refused = await call({ region: 'eu-west' }, headers);
      expect({ status: refused.status, code: codeOf(refused.text) }).toEqual({
        status: 400,
        code: -32020,
      });
    }
    const wrongNumber = await call({ priority: 3 }, { 'mcp-param-priority': '4' });
    expect(codeOf(wrongNumber.text)).toBe(-32020);
  });
});

describe('MCP 2026-07-28 over stdio (not served yet)', () => {
  it("sends a dual-era client's server/discover probe back to initialize: the SDK v2 client falls back and works", async () => {
    const client = new ClientV2(
      { name: 'v2-stdio', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(
      new StdioV2({
        command: process.execPath,
        args: [CLI_ENTRY, 'mcp-server', 'start'],
        env: { MCP_SERVER_LEDGER_SQLITE_PATH: tempLedgerPath(), PATH: process.env.PATH ?? '' },
        stderr: 'ignore',
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('owlclaw-mcp-gateway');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('inventory_search');
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** Polls a condition the gateway reaches on its own (a stream's end is seen a moment after the client's). */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
}
