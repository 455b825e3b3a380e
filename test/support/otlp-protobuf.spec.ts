import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type HrTime } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ProtobufWireError } from '../../bench/shared/protobuf-reader';
import { decodeExportTraceServiceRequest, DecodedSpan } from './otlp-protobuf';

const RESOURCE = { 'service.name': 'decoder-test', 'deployment.environment': 'ci', 'host.cpus': 2 };

/** Spans made by the real SDK: two scopes, a parent and children, each scalar attribute type. */
function sdkSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(RESOURCE),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const gateway = provider.getTracer('gateway', '1.0.0');
  const upstream = provider.getTracer('upstream');

  const request = gateway.startSpan('tools/call', {
    kind: SpanKind.SERVER,
    attributes: {
      'rpc.method': 'tools/call',
      'mcp.tool': 'fx_add — ünïcode ✓',
      'rpc.jsonrpc.error_code': -32001,
      'mcp.retry': false,
      'mcp.cached': true,
      'mcp.cost': 0.25,
      'mcp.bytes': 2 ** 40,
      'mcp.empty': '',
      // Not a scalar: left out by the decoder, as by the receiver's JSON path.
      'mcp.tags': ['a', 'b'],
    },
  });
  const inRequest = trace.setSpan(ROOT_CONTEXT, request);
  const governance = gateway.startSpan('governance', { kind: SpanKind.INTERNAL }, inRequest);
  governance.setStatus({ code: SpanStatusCode.ERROR, message: 'Rate limit exceeded' });
  governance.end();
  const call = upstream.startSpan('upstream tools/call', { kind: SpanKind.CLIENT }, inRequest);
  call.setStatus({ code: SpanStatusCode.OK });
  call.end();
  request.end();
  return exporter.getFinishedSpans();
}

function nanos([seconds, fraction]: HrTime): bigint {
  return BigInt(seconds) * 1_000_000_000n + BigInt(fraction);
}

/** What the decoder must read back from a span the SDK made. */
function expectedSpan(span: ReadableSpan): DecodedSpan {
  const scalars = Object.entries(span.attributes).filter(([, value]) =>
    ['string', 'number', 'boolean'].includes(typeof value),
  );
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? '',
    name: span.name,
    // The API's kinds start at INTERNAL = 0; the proto's at UNSPECIFIED = 0.
    kind: span.kind + 1,
    startTimeUnixNano: nanos(span.startTime),
    endTimeUnixNano: nanos(span.endTime),
    attributes: Object.fromEntries(scalars) as DecodedSpan['attributes'],
    status: { code: span.status.code, message: span.status.message ?? '' },
  };
}

const bySpanId = (a: { spanId: string }, b: { spanId: string }) => a.spanId.localeCompare(b.spanId);

/** A protobuf encoder just big enough to write messages the SDK never would. */
const wire = {
  varint(value: number | bigint): number[] {
    let rest = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    while (rest > 0x7fn) {
      out.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    return [...out, Number(rest)];
  },
  tag: (field: number, wireType: number) => wire.varint(field * 8 + wireType),
  len: (field: number, bytes: number[]) => [
    ...wire.tag(field, 2),
    ...wire.varint(bytes.length),
    ...bytes,
  ],
  text: (field: number, value: string) => wire.len(field, [...Buffer.from(value)]),
  uint: (field: number, value: number | bigint) => [...wire.tag(field, 0), ...wire.varint(value)],
  fixed64(field: number, value: bigint): number[] {
    const bytes = Buffer.alloc(8);
    bytes.writeBigUInt64LE(value);
    return [...wire.tag(field, 1), ...bytes];
  },
  double(field: number, value: number): number[] {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleLE(value);
    return [...wire.tag(field, 1), ...bytes];
  },
  /** One field of every wire type, with numbers no OTLP message uses here. */
  unknowns: (): number[] => [
    ...wire.uint(90, 2n ** 63n),
    ...wire.fixed64(91, 7n),
    ...wire.text(92, 'future field'),
    // A group holding a value and a nested group.
    ...wire.tag(93, 3),
    ...wire.uint(1, 1),
    ...wire.tag(2, 3),
    ...wire.tag(2, 4),
    ...wire.tag(93, 4),
    ...wire.tag(94, 5),
    ...[1, 2, 3, 4],
  ],
};

/** ExportTraceServiceRequest holding one span, with unknown fields at every level when asked. */
function handMadeRequest(unknown: boolean): Uint8Array {
  const extra = () => (unknown ? wire.unknowns() : []);
  const keyValue = (key: string, value: number[]) =>
    wire.len(9, [
      ...wire.text(1, key),
      ...extra(),
      ...wire.len(2, [...extra(), ...value, ...extra()]),
    ]);
  const span = [
    ...wire.len(1, [...Array(16).keys()]),
    ...extra(),
    ...wire.len(2, [0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3]),
    ...wire.len(4, [0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa, 0xf9, 0xf8]),
    ...wire.text(5, 'handler'),
    ...wire.uint(6, 3),
    ...wire.fixed64(7, 1_700_000_000_123_456_789n),
    ...wire.fixed64(8, 1_700_000_000_223_456_789n),
    ...keyValue('text', wire.text(1, 'value')),
    ...keyValue('flag', wire.uint(2, 1)),
    ...keyValue('negative', wire.uint(3, -5)),
    ...keyValue('ratio', wire.double(4, 0.5)),
    ...keyValue('__proto__', wire.text(1, 'data, not a prototype')),
    ...wire.len(15, [...extra(), ...wire.text(2, 'upstream down'), ...wire.uint(3, 2)]),
    ...extra(),
  ];
  const resource = wire.len(1, [
    ...wire.len(1, [...wire.text(1, 'service.name'), ...wire.len(2, wire.text(1, 'gw'))]),
    ...extra(),
  ]);
  const scopeSpans = wire.len(2, [
    ...wire.len(1, wire.text(1, 'scope')),
    ...extra(),
    ...wire.len(2, span),
  ]);
  return Uint8Array.from([...extra(), ...wire.len(1, [...resource, ...extra(), ...scopeSpans])]);
}

describe('decodeExportTraceServiceRequest', () => {
  it('reads back what the OpenTelemetry protobuf serializer wrote, span by span', () => {
    const spans = sdkSpans();
    const body = ProtobufTraceSerializer.serializeRequest(spans);
    expect(body).toBeInstanceOf(Uint8Array);

    const decoded = decodeExportTraceServiceRequest(body!);
    expect(decoded).toHaveLength(1);
    expect(decoded[0].resource).toMatchObject(RESOURCE);
    expect(decoded[0].spans.sort(bySpanId)).toEqual(spans.map(expectedSpan).sort(bySpanId));
    // The tree as the tests read it: both steps are children of the request span.
    const request = decoded[0].spans.find((span) => span.name === 'tools/call');
    expect(decoded[0].spans.filter((span) => span.parentSpanId === request?.spanId)).toHaveLength(
      2,
    );
    expect(request?.attributes).not.toHaveProperty('mcp.tags');
  });

  it('reads an empty request as no spans', () => {
    expect(decodeExportTraceServiceRequest(new Uint8Array(0))).toEqual([]);
  });

  it('skips unknown fields of every wire type at every level', () => {
    const plain = decodeExportTraceServiceRequest(handMadeRequest(false));
    expect(decodeExportTraceServiceRequest(handMadeRequest(true))).toEqual(plain);
    expect(plain).toEqual([
      {
        resource: { 'service.name': 'gw' },
        spans: [
          {
            traceId: '000102030405060708090a0b0c0d0e0f',
            spanId: 'deadbeef00010203',
            parentSpanId: 'fffefdfcfbfaf9f8',
            name: 'handler',
            kind: 3,
            startTimeUnixNano: 1_700_000_000_123_456_789n,
            endTimeUnixNano: 1_700_000_000_223_456_789n,
            attributes: {
              text: 'value',
              flag: true,
              negative: -5,
              ratio: 0.5,
              ['__proto__']: 'data, not a prototype',
            },
            status: { code: 2, message: 'upstream down' },
          },
        ],
      },
    ]);
    const [span] = plain[0].spans;
    expect(Object.getPrototypeOf(span.attributes)).toBe(Object.prototype);
  });

  it('throws on every truncation of a real export', () => {
    const body = ProtobufTraceSerializer.serializeRequest(sdkSpans())!;
    for (let length = 1; length < body.length; length++) {
      expect(() => decodeExportTraceServiceRequest(body.subarray(0, length))).toThrow(
        ProtobufWireError,
      );
    }
  });

  it('refuses malformed bytes (attack: hostile exporter) with ProtobufWireError', () => {
    const refused = (bytes: number[]) => () =>
      decodeExportTraceServiceRequest(Uint8Array.from(bytes));
    // A known field of the wrong wire type: the span's name as a varint.
    const nameAsVarint = wire.len(1, wire.len(2, wire.len(2, wire.uint(5, 1))));
    expect(refused(nameAsVarint)).toThrow(/field 5 has wire type 0, expected 2/);
    // Wire types 6 and 7 do not exist.
    expect(refused(wire.tag(1, 6))).toThrow(/unknown wire type 6/);
    // Field number 0 is reserved.
    expect(refused([0x02, 0x00])).toThrow(/field number 0/);
    // A varint that never ends within ten bytes.
    expect(refused([...wire.tag(9, 0), ...Array(11).fill(0xff)])).toThrow(/longer than 10 bytes/);
    // A length past the end of the body, and one past 2^53.
    expect(refused([0x0a, 0x7f, 0x00])).toThrow(/truncated/);
    expect(refused([0x0a, ...wire.varint(2n ** 60n)])).toThrow(ProtobufWireError);
    // A group end with no group, and a group closed by another's end.
    expect(refused(wire.tag(7, 4))).toThrow(/unexpected group end/);
    expect(refused([...wire.tag(7, 3), ...wire.tag(8, 4)])).toThrow(/does not close/);
    expect(refused(wire.tag(7, 3))).toThrow(/truncated/);
  });

  it('skips deeply nested groups without recursion (attack: a stack overflow)', () => {
    const depth = 200_000;
    const bytes = [
      ...Array(depth).fill(wire.tag(9, 3)[0]),
      ...Array(depth).fill(wire.tag(9, 4)[0]),
    ];
    expect(decodeExportTraceServiceRequest(Uint8Array.from(bytes))).toEqual([]);
  });
});
