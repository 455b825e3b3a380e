import { createServer, Server } from 'node:http';
import { once } from 'node:events';
import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { TracingConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { OtlpReceiver } from '../../../test/support/otlp-receiver';
import { requestScope } from '../request-scope';
import { OtelRequestTracer } from './otel-request.tracer';
import { RequestSpan } from './request-tracer';
import { ATTR_MCP_TOOL, ATTR_MCP_UPSTREAM, SPAN_GOVERNANCE, SPAN_HANDLER } from './span-attributes';
import { formatTraceparent, newSpanId, newTraceId, parseTraceparent } from './traceparent';

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
});

afterAll(() => receiver.close());

function tracer(overrides: Partial<TracingConfig> = {}): OtelRequestTracer {
  return new OtelRequestTracer({
    ...DEFAULT_CONFIG.tracing,
    enabled: true,
    endpoint: receiver.tracesUrl,
    schedule_delay_ms: 20,
    ...overrides,
  });
}

/** A caller's traceparent, sampled or not. */
function caller(sampled = true) {
  const traceId = newTraceId();
  const spanId = newSpanId();
  return { traceId, spanId, parent: parseTraceparent(formatTraceparent(traceId, spanId, sampled)) };
}

/** Runs `work` as one request the way the dispatcher does: its span, then its scope inside. */
function request<T>(
  tracing: OtelRequestTracer,
  parent: ReturnType<typeof caller>['parent'],
  work: (span: RequestSpan) => Promise<T>,
): Promise<T> {
  return tracing.traceRequest('tools/call', parent, {}, (span) =>
    requestScope.run(
      {
        requestId: '7',
        traceId: span.traceId,
        spanId: span.spanId,
        sampled: span.sampled,
        method: 'tools/call',
        clientId: 'acme',
        sessionId: 'session-1',
        traceContext: span.traceContext,
      },
      () => work(span),
    ),
  );
}

describe('OtelRequestTracer', () => {
  it('makes the request a SERVER child of the caller’s span, its steps INTERNAL and upstream calls CLIENT children', async () => {
    const tracing = tracer();
    const { traceId, spanId, parent } = caller();
    let upstreamTraceparent: string | undefined;
    const requestSpanId = await request(tracing, parent, async (span) => {
      await tracing.inSpan(SPAN_GOVERNANCE, {}, () => Promise.resolve());
      await tracing.inSpan(SPAN_HANDLER, { [ATTR_MCP_TOOL]: 'echo' }, () =>
        tracing.inSpan('upstream tools/call', { [ATTR_MCP_UPSTREAM]: 'docs' }, () => {
          upstreamTraceparent = tracing.outgoingTraceparent();
          return Promise.resolve();
        }),
      );
      span.setAttributes({ [ATTR_MCP_TOOL]: 'echo', unset: undefined });
      span.end({});
      return span.spanId;
    });
    await tracing.onApplicationShutdown();

    const spans = receiver.trace(traceId);
    const byName = new Map(spans.map((span) => [span.name, span]));
    const server = byName.get('tools/call');
    expect(server).toMatchObject({
      kind: 'server',
      spanId: requestSpanId,
      parentSpanId: spanId,
      status: { code: 'unset' },
      attributes: {
        'rpc.system': 'jsonrpc',
        'rpc.method': 'tools/call',
        'mcp.method': 'tools/call',
        'mcp.tool': 'echo',
        'mcp.outcome': 'success',
        'mcp.client_id': 'acme',
        'mcp.session_id': 'session-1',
        'rpc.jsonrpc.request_id': '7',
      },
      resource: { 'service.name': 'owlclaw-mcp-gateway' },
    });
    expect(server?.attributes).not.toHaveProperty('unset');
    expect(byName.get(SPAN_GOVERNANCE)).toMatchObject({
      kind: 'internal',
      parentSpanId: requestSpanId,
    });
    const handler = byName.get(SPAN_HANDLER);
    expect(handler).toMatchObject({ kind: 'internal', parentSpanId: requestSpanId });
    const upstream = byName.get('upstream tools/call');
    expect(upstream).toMatchObject({
      kind: 'client',
      parentSpanId: handler?.spanId,
      attributes: { 'mcp.upstream.server_id': 'docs' },
    });
    // The upstream is told the CLIENT span is its parent.
    expect(upstreamTraceparent).toBe(formatTraceparent(traceId, upstream?.spanId ?? '', true));
  });

  it('records a failed step and a failed request with the JSON-RPC code', async () => {
    const tracing = tracer({ service_name: 'gw-test' });
    const { traceId, parent } = caller();
    const denied = new GatewayError(ErrorCode.GovernanceDenied, 'Rate limit exceeded');
    await request(tracing, parent, async (span) => {
      await expect(tracing.inSpan(SPAN_GOVERNANCE, {}, () => Promise.reject(denied))).rejects.toBe(
        denied,
      );
      span.end({ errorCode: ErrorCode.GovernanceDenied, message: 'Rate limit exceeded' });
      // A second end changes nothing.
      span.end({});
    });
    await tracing.onApplicationShutdown();

    const spans = receiver.trace(traceId);
    expect(spans.find((span) => span.name === SPAN_GOVERNANCE)).toMatchObject({
      status: { code: 'error', message: 'Rate limit exceeded' },
      attributes: { 'rpc.jsonrpc.error_code': ErrorCode.GovernanceDenied },
    });
    expect(spans.find((span) => span.name === 'tools/call')).toMatchObject({
      status: { code: 'error', message: 'Rate limit exceeded' },
      attributes: {
        'mcp.outcome': 'denied',
        'rpc.jsonrpc.error_code': ErrorCode.GovernanceDenied,
      },
      resource: { 'service.name': 'gw-test' },
    });
  });

  it('records the outcome a request names when its code does not say it (cancelled, tool error)', async () => {
    const tracing = tracer();
    const cancelled = caller();
    const toolError = caller();
    await request(tracing, cancelled.parent, (span) => {
      span.end({ outcome: 'cancelled' });
      return Promise.resolve();
    });
    await request(tracing, toolError.parent, (span) => {
      span.end({ outcome: 'tool_error' });
      return Promise.resolve();
    });
    await tracing.onApplicationShutdown();

    expect(receiver.trace(cancelled.traceId)[0]).toMatchObject({
      status: { code: 'unset' },
      attributes: { 'mcp.outcome': 'cancelled' },
    });
    expect(receiver.trace(toolError.traceId)[0]).toMatchObject({
      attributes: { 'mcp.outcome': 'tool_error' },
    });
  });

  it('ends the span of a request whose callback throws, as an internal error', async () => {
    const tracing = tracer();
    const { traceId, parent } = caller();
    await expect(
      tracing.traceRequest('tools/call', parent, {}, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await tracing.onApplicationShutdown();
    expect(receiver.trace(traceId)).toEqual([
      expect.objectContaining({
        status: { code: 'error', message: 'boom' },
        attributes: expect.objectContaining({ 'rpc.jsonrpc.error_code': ErrorCode.InternalError }),
      }),
    ]);
  });

  it('records nothing for a caller whose trace is not sampled, yet keeps its trace id', async () => {
    const tracing = tracer();
    const { traceId, parent } = caller(false);
    const seen = await request(tracing, parent, async (span) => {
      const outgoing = await tracing.inSpan(SPAN_HANDLER, {}, () =>
        Promise.resolve(tracing.outgoingTraceparent()),
      );
      span.end({});
      return { span, outgoing };
    });
    await tracing.onApplicationShutdown();
    expect(seen.span).toMatchObject({ traceId, sampled: false });
    expect(seen.outgoing).toBe(formatTraceparent(traceId, seen.span.spanId, false));
    expect(receiver.trace(traceId)).toEqual([]);
  });

  it('samples new traces by sample_ratio, and always those of a sampled caller', async () => {
    const tracing = tracer({ sample_ratio: 0 });
    const fresh = await request(tracing, undefined, (span) => {
      span.end({});
      return Promise.resolve(span);
    });
    const { traceId, parent } = caller();
    await request(tracing, parent, (span) => Promise.resolve(span.end({})));
    await tracing.onApplicationShutdown();
    expect(fresh.sampled).toBe(false);
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(receiver.trace(fresh.traceId)).toEqual([]);
    expect(receiver.trace(traceId)).toHaveLength(1);
  });

  it('runs a step outside any request without a span', async () => {
    const tracing = tracer();
    const before = receiver.spans.length;
    await expect(tracing.inSpan(SPAN_HANDLER, {}, () => Promise.resolve(42))).resolves.toBe(42);
    expect(tracing.outgoingTraceparent()).toBeUndefined();
    await tracing.onApplicationShutdown();
    expect(receiver.spans.length).toBe(before);
  });

  it('shuts down even when the collector never answers', async () => {
    const silent: Server = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    const tracing = tracer({
      endpoint: `http://127.0.0.1:${port}/v1/traces`,
      export_timeout_ms: 200,
    });
    await request(tracing, caller().parent, (span) => Promise.resolve(span.end({})));
    // Resolves: the export it waits for is bounded by export_timeout_ms (Jest's timeout is the backstop).
    await tracing.onApplicationShutdown();
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });
});
