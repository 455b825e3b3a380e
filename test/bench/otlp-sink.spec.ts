import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OtlpSink } from '../../bench/lib/otlp-sink';
import { countJsonSpans, countProtobufSpans } from '../../bench/lib/otlp-span-count';
import { ProtobufWireError } from '../../bench/shared/protobuf-reader';
import { exportWith } from '../support/span-export';

/**
 * The tracing cell's "spans per traced request" is only as right as the
 * sink's count: it must count every span of a real export in either
 * encoding, across resources and scopes, without decoding the spans.
 */

/** `perTrace` request trees of 4 spans (the gateway's shape), from two resources and two scopes. */
function sdkSpans(perTrace: number): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  for (const service of ['gw-a', 'gw-b']) {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': service }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const gateway = provider.getTracer('gateway');
    const ledger = provider.getTracer('ledger');
    for (let i = 0; i < perTrace; i++) {
      const request = gateway.startSpan('tools/call', { attributes: { 'mcp.tool': 'echo' } });
      const inRequest = trace.setSpan(ROOT_CONTEXT, request);
      gateway.startSpan('governance', {}, inRequest).end();
      gateway.startSpan('handler', {}, inRequest).end();
      ledger.startSpan('ledger.write', {}, inRequest).end();
      request.end();
    }
  }
  return exporter.getFinishedSpans();
}

describe('OTLP span count of the bench sink', () => {
  it('counts every span of a protobuf and of a JSON export, across resources and scopes', () => {
    const spans = sdkSpans(25);
    expect(spans).toHaveLength(200);
    expect(countProtobufSpans(ProtobufTraceSerializer.serializeRequest(spans)!)).toBe(200);
    expect(countJsonSpans(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!))).toBe(200);
    expect(countProtobufSpans(new Uint8Array(0))).toBe(0);
  });

  it('throws on a truncated protobuf export rather than miscounting it', () => {
    // One resource: a cut between two resources' ResourceSpans would be a shorter, valid export.
    const oneResource = sdkSpans(1).filter(
      (span) => span.resource.attributes['service.name'] === 'gw-a',
    );
    const body = ProtobufTraceSerializer.serializeRequest(oneResource)!;
    for (let length = 1; length < body.length; length++) {
      expect(() => countProtobufSpans(body.subarray(0, length))).toThrow(ProtobufWireError);
    }
  });
});

describe('OtlpSink', () => {
  let sink: OtlpSink;

  beforeAll(async () => {
    sink = await OtlpSink.start();
  });

  afterAll(() => sink.stop());

  it('takes the exports of both OTLP/HTTP exporters and counts their spans', async () => {
    await exportWith(new OtlpProtobufTraceExporter({ url: sink.tracesUrl }), sdkSpans(3));
    expect(sink.counts).toMatchObject({ exports: 1, spans: 24 });
    await exportWith(new OtlpJsonTraceExporter({ url: sink.tracesUrl }), sdkSpans(2));
    expect(sink.counts).toMatchObject({ exports: 2, spans: 40 });
    expect(sink.counts.bytes).toBeGreaterThan(0);
  });

  it('answers a malformed protobuf body 400 without counting it', async () => {
    const before = { ...sink.counts };
    const response = await fetch(sink.tracesUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: Uint8Array.from([0x0a, 0x09, 0x12]),
    });
    expect(response.status).toBe(400);
    expect(sink.counts.spans).toBe(before.spans);
    expect(sink.counts.exports).toBe(before.exports + 1);
  });
});
