import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  formatTraceparent,
  newSpanId,
  newTraceId,
} from '../../src/observability/tracing/traceparent';
import { HttpGatewayChild } from '../support/http-child';
import { OtlpReceiver, ReceivedSpan } from '../support/otlp-receiver';
import { freePort } from '../support/redis-server';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { allToolNames } from '../support/sdk-list-pages';
import { testGatewayEnv } from '../support/test-defaults';
import { TracedHttpUpstream } from '../support/traced-http-upstream';

/**
 * OpenTelemetry tracing end to end: gateway processes export to an
 * in-process OTLP receiver (real HTTP, OTLP protobuf by default, JSON when
 * asked). A request that brings a
 * W3C traceparent (HTTP header, or `params._meta` over stdio) becomes a
 * SERVER span child of the caller's span, with governance, handler and
 * ledger steps below it and a CLIENT span per upstream call, whose
 * traceparent the upstream receives. The standard OTEL_* switches work, and
 * a collector that is down costs calls nothing.
 */

// Every test starts a gateway process (several seconds on a busy machine).
jest.setTimeout(90_000);

let receiver: OtlpReceiver;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(() => receiver.close());

/** A caller's span: the trace id and span id a client puts in its traceparent. */
function callerSpan() {
  const traceId = newTraceId();
  const spanId = newSpanId();
  return { traceId, spanId, traceparent: formatTraceparent(traceId, spanId, true) };
}

/** Fast exports, so spans arrive while the test waits for them. */
const FAST_EXPORT = { MCP_SERVER_TRACING_SCHEDULE_DELAY_MS: '50' };

async function httpGateway(env: Record<string, string>): Promise<HttpGatewayChild> {
  const gateway = await HttpGatewayChild.start({ ...testGatewayEnv(), ...FAST_EXPORT, ...env });
  cleanups.push(() => gateway.stop());
  return gateway;
}

async function httpClient(gateway: HttpGatewayChild, traceparent: string) {
  const handle = await connectSdkClient({
    kind: 'streamable-http',
    baseUrl: gateway.baseUrl,
    headers: { traceparent, 'X-MCP-Client-ID': 'trace-client' },
  });
  cleanups.push(() => handle.dispose());
  return handle;
}

async function stdioClient(env: Record<string, string>): Promise<SdkClientHandle> {
  const handle = await connectSdkClient({
    kind: 'stdio',
    fixtures: true,
    env: { ...FAST_EXPORT, ...env },
  });
  cleanups.push(() => handle.dispose());
  return handle;
}

/** Waits until the trace holds a span named `name`; returns the trace's spans. */
async function traceWith(traceId: string, name: string): Promise<ReceivedSpan[]> {
  await receiver.waitFor(
    () => receiver.trace(traceId).some((span) => span.name === name),
    `span ${name} of trace ${traceId}`,
  );
  return receiver.trace(traceId);
}

/**
 * The request span of a governed, audited call and its three steps, as the
 * caller's child, every span sent in `encoding` (protobuf unless configured).
 */
async function expectGovernedCallTree(
  traceId: string,
  callerSpanId: string,
  expected: {
    clientId: string;
    sessionId: string | undefined;
    encoding?: ReceivedSpan['encoding'];
  },
): Promise<void> {
  // The request span ends last, after its ledger write.
  const spans = await traceWith(traceId, 'tools/call');
  expect(new Set(spans.map((span) => span.encoding))).toEqual(
    new Set([expected.encoding ?? 'protobuf']),
  );
  const request = spans.find((span) => span.name === 'tools/call');
  expect(request).toMatchObject({
    kind: 'server',
    parentSpanId: callerSpanId,
    status: { code: 'unset' },
    attributes: {
      'rpc.system': 'jsonrpc',
      'rpc.method': 'tools/call',
      'mcp.method': 'tools/call',
      'mcp.outcome': 'success',
      'mcp.client_id': expected.clientId,
    },
    resource: { 'service.name': 'owlclaw-mcp-gateway' },
  });
  if (expected.sessionId) expect(request?.attributes['mcp.session_id']).toBe(expected.sessionId);
  const children = spans.filter((span) => span.parentSpanId === request?.spanId);
  expect(children.map((span) => span.name).sort()).toEqual([
    'governance',
    'handler',
    'ledger.write',
  ]);
  expect(children.every((span) => span.kind === 'internal')).toBe(true);
  expect(children.find((span) => span.name === 'handler')?.attributes).toMatchObject({
    'mcp.tool': 'fx_add',
  });
  expect(children.find((span) => span.name === 'ledger.write')?.attributes).toMatchObject({
    'mcp.ledger.driver': 'sqlite',
  });
}

describe('tracing over HTTP', () => {
  it('switches on with OTEL_EXPORTER_OTLP_ENDPOINT alone; the request span is the child of the traceparent header', async () => {
    const gateway = await httpGateway({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.baseUrl });
    const caller = callerSpan();
    const { client, serverSessionId } = await httpClient(gateway, caller.traceparent);

    const result = await client.callTool({ name: 'fx_add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });

    await expectGovernedCallTree(caller.traceId, caller.spanId, {
      clientId: 'trace-client',
      sessionId: serverSessionId,
    });
  });

  it('exports OTLP/JSON when OTEL_EXPORTER_OTLP_TRACES_PROTOCOL says http/json, the same span tree', async () => {
    const gateway = await httpGateway({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.baseUrl,
      // The signal's own variable wins over the one for every signal.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    const caller = callerSpan();
    const { client, serverSessionId } = await httpClient(gateway, caller.traceparent);

    const result = await client.callTool({ name: 'fx_add', arguments: { a: 4, b: 5 } });
    expect(result.structuredContent).toEqual({ sum: 9 });

    await expectGovernedCallTree(caller.traceId, caller.spanId, {
      clientId: 'trace-client',
      sessionId: serverSessionId,
      encoding: 'json',
    });
  });

  it('records a refused call with its JSON-RPC error code', async () => {
    const gateway = await httpGateway({
      MCP_SERVER_TRACING_ENABLED: 'true',
      MCP_SERVER_TRACING_ENDPOINT: receiver.tracesUrl,
    });
    const caller = callerSpan();
    const { client } = await httpClient(gateway, caller.traceparent);

    await expect(client.callTool({ name: 'fx_no_such_tool', arguments: {} })).rejects.toThrow(
      /not found/i,
    );
    // The request span ends last, after its ledger write.
    const spans = await traceWith(caller.traceId, 'tools/call');
    const request = spans.find((span) => span.name === 'tools/call');
    expect(request).toMatchObject({
      status: { code: 'error' },
      attributes: { 'rpc.jsonrpc.error_code': -32001, 'mcp.outcome': 'not_found' },
    });
    expect(spans.find((span) => span.name === 'governance')).toMatchObject({
      parentSpanId: request?.spanId,
      status: { code: 'error' },
      attributes: { 'rpc.jsonrpc.error_code': -32001 },
    });
  });
});

describe('tracing over stdio', () => {
  it('takes the parent from params._meta.traceparent', async () => {
    const { client } = await stdioClient({
      MCP_SERVER_TRACING_ENABLED: 'true',
      MCP_SERVER_TRACING_ENDPOINT: receiver.tracesUrl,
      MCP_CLIENT_ID: 'trace-stdio',
    });
    const caller = callerSpan();

    const result = await client.callTool({
      name: 'fx_add',
      arguments: { a: 1, b: 1 },
      _meta: { traceparent: caller.traceparent },
    });
    expect(result.structuredContent).toEqual({ sum: 2 });

    await expectGovernedCallTree(caller.traceId, caller.spanId, {
      clientId: 'trace-stdio',
      sessionId: undefined,
    });
  });

  it('stays off with OTEL_SDK_DISABLED=true whatever else is set: no span arrives', async () => {
    const handle = await stdioClient({
      OTEL_SDK_DISABLED: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.baseUrl,
      MCP_SERVER_TRACING_ENABLED: 'true',
    });
    const caller = callerSpan();
    const before = receiver.requests;
    await handle.client.callTool({
      name: 'fx_add',
      arguments: { a: 1, b: 2 },
      _meta: { traceparent: caller.traceparent },
    });
    // A stopped gateway has flushed whatever it had: had tracing been on, the spans would be here.
    await handle.dispose();
    expect(await handle.stdio?.exited).toEqual({ code: 0, signal: null });
    expect(receiver.requests).toBe(before);
    expect(receiver.trace(caller.traceId)).toEqual([]);
  });
});

describe('tracing of upstream calls', () => {
  let registry: string;
  let upstream: TracedHttpUpstream;

  beforeEach(async () => {
    registry = mkdtempSync(join(tmpdir(), 'owlclaw-tracing-registry-'));
    upstream = await TracedHttpUpstream.start();
    cleanups.push(
      () => upstream.stop(),
      () => rmSync(registry, { recursive: true, force: true }),
    );
    writeFileSync(
      join(registry, 'traced.json'),
      JSON.stringify({
        version: 1,
        server_id: 'traced',
        transport: 'streamable_http',
        http: { url: upstream.url },
        allowed_tools: ['echo'],
      }),
    );
  });

  it('makes each upstream call a CLIENT span whose traceparent the upstream receives, as header and in _meta', async () => {
    const gateway = await httpGateway({
      MCP_SERVER_TRACING_ENABLED: 'true',
      MCP_SERVER_TRACING_ENDPOINT: receiver.tracesUrl,
      MCP_SERVER_UPSTREAMS_REGISTRY_DIR: registry,
    });
    const caller = callerSpan();
    const { client } = await httpClient(gateway, caller.traceparent);
    // The upstream's tools are listed in the background after start.
    const deadline = Date.now() + 30_000;
    while (!(await allToolNames(client)).includes('traced__echo')) {
      if (Date.now() > deadline) throw new Error('traced__echo was never listed');
      // Bounded polling for a background listing, not a timed assertion.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    upstream.calls.length = 0;

    const result = await client.callTool({ name: 'traced__echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);

    const spans = await traceWith(caller.traceId, 'tools/call');
    const upstreamSpan = spans.find((span) => span.name === 'upstream tools/call');
    const handler = spans.find((span) => span.name === 'handler');
    expect(upstreamSpan).toMatchObject({
      kind: 'client',
      parentSpanId: handler?.spanId,
      attributes: {
        'mcp.upstream.server_id': 'traced',
        'mcp.tool': 'echo',
        'rpc.method': 'tools/call',
      },
    });
    const expected = formatTraceparent(caller.traceId, upstreamSpan?.spanId ?? '', true);
    expect(upstream.calls).toEqual([{ header: expected, meta: expected }]);
  });
});

describe('a collector that is down', () => {
  it('costs calls nothing: they succeed, the failure is logged, the gateway stops in order', async () => {
    const closedPort = await freePort();
    const gateway = await httpGateway({
      MCP_SERVER_TRACING_ENABLED: 'true',
      MCP_SERVER_TRACING_ENDPOINT: `http://127.0.0.1:${closedPort}/v1/traces`,
      MCP_SERVER_TRACING_EXPORT_TIMEOUT_MS: '1000',
    });
    const { client } = await httpClient(gateway, callerSpan().traceparent);
    for (let i = 0; i < 3; i++) {
      const result = await client.callTool({ name: 'fx_add', arguments: { a: i, b: 1 } });
      expect(result.structuredContent).toEqual({ sum: i + 1 });
    }
    const deadline = Date.now() + 15_000;
    while (!gateway.stderr.includes('trace export failed') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(gateway.stderr).toContain('trace export failed');
    await gateway.stop();
    expect(await gateway.exited).toBe(0);
  });

  it('never holds up shutdown, even when it accepts connections and never answers', async () => {
    const silent: Server = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    cleanups.push(async () => {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    });
    const { port } = silent.address() as { port: number };
    const gateway = await httpGateway({
      MCP_SERVER_TRACING_ENABLED: 'true',
      MCP_SERVER_TRACING_ENDPOINT: `http://127.0.0.1:${port}/v1/traces`,
      MCP_SERVER_TRACING_EXPORT_TIMEOUT_MS: '1000',
      // Spans wait in the queue: shutdown is what must send them.
      MCP_SERVER_TRACING_SCHEDULE_DELAY_MS: '60000',
    });
    const { client } = await httpClient(gateway, callerSpan().traceparent);
    await client.callTool({ name: 'fx_add', arguments: { a: 1, b: 1 } });
    // An orderly exit (code 0), not the harness's SIGKILL after 10 s.
    await gateway.stop();
    expect(await gateway.exited).toBe(0);
  });
});
