import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OtlpReceiver, ReceivedSpan } from './otlp-receiver';
import { exportWith } from './span-export';

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
});

afterAll(() => receiver.close());

/** A request span with a failed child, made by the real SDK. */
function sdkSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'receiver-test' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('receiver-test');
  const request = tracer.startSpan('tools/call', {
    kind: SpanKind.SERVER,
    attributes: { 'mcp.tool': 'fx_add', 'rpc.jsonrpc.error_code': -32003, 'mcp.cached': false },
  });
  const step = tracer.startSpan('governance', {}, trace.setSpan(ROOT_CONTEXT, request));
  step.setStatus({ code: SpanStatusCode.ERROR, message: 'denied' });
  step.end();
  request.end();
  return exporter.getFinishedSpans();
}

/** What arrived for the trace of `spans`, ordered, without how it was encoded. */
function received(spans: ReadableSpan[]): Array<Omit<ReceivedSpan, 'encoding'>> {
  return receiver
    .trace(spans[0].spanContext().traceId)
    .map(({ encoding: _, ...span }) => span)
    .sort((a, b) => a.spanId.localeCompare(b.spanId));
}

async function post(body: Uint8Array | string, headers: Record<string, string>) {
  return fetch(receiver.tracesUrl, { method: 'POST', body, headers });
}

describe('OtlpReceiver', () => {
  it('turns the same spans into the same shape from the protobuf and the JSON exporter', async () => {
    const spans = sdkSpans();
    await exportWith(new OtlpProtobufTraceExporter({ url: receiver.tracesUrl }), spans);
    const fromProtobuf = received(spans);
    expect(receiver.trace(spans[0].spanContext().traceId).map((s) => s.encoding)).toEqual([
      'protobuf',
      'protobuf',
    ]);
    receiver.spans.length = 0;

    await exportWith(
      new OtlpJsonTraceExporter({
        url: receiver.tracesUrl,
        compression: CompressionAlgorithm.GZIP,
      }),
      spans,
    );
    expect(receiver.trace(spans[0].spanContext().traceId).map((s) => s.encoding)).toEqual([
      'json',
      'json',
    ]);
    expect(received(spans)).toEqual(fromProtobuf);

    const request = fromProtobuf.find((span) => span.name === 'tools/call');
    expect(request).toMatchObject({
      kind: 'server',
      parentSpanId: '',
      attributes: { 'mcp.tool': 'fx_add', 'rpc.jsonrpc.error_code': -32003, 'mcp.cached': false },
      status: { code: 'unset' },
      resource: { 'service.name': 'receiver-test' },
    });
    expect(fromProtobuf.find((span) => span.name === 'governance')).toMatchObject({
      kind: 'internal',
      parentSpanId: request?.spanId,
      status: { code: 'error', message: 'denied' },
    });
  });

  it('answers a protobuf export with an empty protobuf response, as a collector does', async () => {
    const response = await post(new Uint8Array(0), {
      'content-type': 'application/x-protobuf',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-protobuf');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('refuses bodies that do not decode with 400 and says why (attack: hostile exporter)', async () => {
    const before = receiver.spans.length;
    const truncated = await post(Uint8Array.from([0x0a, 0x05, 0x01]), {
      'content-type': 'application/x-protobuf',
    });
    expect(truncated.status).toBe(400);
    expect(await truncated.text()).toMatch(/truncated/);
    const notJson = await post('{"resourceSpans": [', { 'content-type': 'application/json' });
    expect(notJson.status).toBe(400);
    // A gzip bomb: past the 16 MiB body limit once inflated, a few kilobytes on the wire.
    const bomb = await post(gzipSync(Buffer.alloc(17 * 1024 * 1024)), {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
    });
    expect(bomb.status).toBe(400);
    expect(receiver.refused).toHaveLength(3);
    expect(receiver.spans.length).toBe(before);
  });

  it('answers another Content-Type 415, so a misconfigured exporter shows', async () => {
    const response = await post('spans', { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
  });
});
