import { ProtobufReader } from '../../bench/shared/protobuf-reader';

/*
 * A decoder of the OTLP/HTTP protobuf body (ExportTraceServiceRequest) for
 * the tests' collector: just the fields the tests read, by the field numbers
 * of opentelemetry-proto (collector/trace/v1/trace_service.proto,
 * trace/v1/trace.proto, resource/v1/resource.proto, common/v1/common.proto).
 * Unknown fields are skipped; malformed bytes throw ProtobufWireError.
 */

/** A flattened attribute value; arrays, maps and bytes are left out, as the JSON path does. */
export type DecodedAttributes = Record<string, string | number | boolean>;

/** One span, ids as lowercase hex, kind and status code as their proto enum numbers. */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: DecodedAttributes;
  /** StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
}

/** The spans of one resource (every scope's, in order) with the resource's attributes. */
export interface DecodedResourceSpans {
  resource: DecodedAttributes;
  spans: DecodedSpan[];
}

/** ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; } */
export function decodeExportTraceServiceRequest(body: Uint8Array): DecodedResourceSpans[] {
  const request = new ProtobufReader(body);
  const decoded: DecodedResourceSpans[] = [];
  while (request.next()) {
    if (request.field === 1) decoded.push(resourceSpans(request.message()));
    else request.skip();
  }
  return decoded;
}

/** ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; } */
function resourceSpans(reader: ProtobufReader): DecodedResourceSpans {
  const decoded: DecodedResourceSpans = { resource: {}, spans: [] };
  while (reader.next()) {
    if (reader.field === 1) decoded.resource = resourceAttributes(reader.message());
    else if (reader.field === 2) decoded.spans.push(...scopeSpans(reader.message()));
    else reader.skip();
  }
  return decoded;
}

/** Resource { repeated KeyValue attributes = 1; } */
function resourceAttributes(reader: ProtobufReader): DecodedAttributes {
  const entries: Array<[string, string | number | boolean]> = [];
  while (reader.next()) {
    if (reader.field === 1) keyValue(reader.message(), entries);
    else reader.skip();
  }
  return Object.fromEntries(entries);
}

/** ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; } */
function scopeSpans(reader: ProtobufReader): DecodedSpan[] {
  const spans: DecodedSpan[] = [];
  while (reader.next()) {
    if (reader.field === 2) spans.push(span(reader.message()));
    else reader.skip();
  }
  return spans;
}

function span(reader: ProtobufReader): DecodedSpan {
  const decoded: DecodedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: {},
    status: { code: 0, message: '' },
  };
  const attributes: Array<[string, string | number | boolean]> = [];
  while (reader.next()) {
    switch (reader.field) {
      case 1:
        decoded.traceId = hex(reader.bytesValue());
        break;
      case 2:
        decoded.spanId = hex(reader.bytesValue());
        break;
      case 4:
        decoded.parentSpanId = hex(reader.bytesValue());
        break;
      case 5:
        decoded.name = reader.string();
        break;
      case 6:
        decoded.kind = reader.varint();
        break;
      case 7:
        decoded.startTimeUnixNano = reader.fixed64();
        break;
      case 8:
        decoded.endTimeUnixNano = reader.fixed64();
        break;
      case 9:
        keyValue(reader.message(), attributes);
        break;
      case 15:
        decoded.status = status(reader.message());
        break;
      default:
        reader.skip();
    }
  }
  // fromEntries makes own properties, so a key such as "__proto__" stays data.
  decoded.attributes = Object.fromEntries(attributes);
  return decoded;
}

/** Status { string message = 2; StatusCode code = 3; } (field 1 is reserved). */
function status(reader: ProtobufReader): DecodedSpan['status'] {
  const decoded = { code: 0, message: '' };
  while (reader.next()) {
    if (reader.field === 2) decoded.message = reader.string();
    else if (reader.field === 3) decoded.code = reader.varint();
    else reader.skip();
  }
  return decoded;
}

/** KeyValue { string key = 1; AnyValue value = 2; }, added when its value is a scalar. */
function keyValue(
  reader: ProtobufReader,
  entries: Array<[string, string | number | boolean]>,
): void {
  let key = '';
  let value: string | number | boolean | undefined;
  while (reader.next()) {
    if (reader.field === 1) key = reader.string();
    else if (reader.field === 2) value = anyValue(reader.message());
    else reader.skip();
  }
  if (value !== undefined) entries.push([key, value]);
}

/** AnyValue, a oneof { string 1; bool 2; int64 3; double 4; array 5; kvlist 6; bytes 7 }: the last set wins. */
function anyValue(reader: ProtobufReader): string | number | boolean | undefined {
  let value: string | number | boolean | undefined;
  while (reader.next()) {
    switch (reader.field) {
      case 1:
        value = reader.string();
        break;
      case 2:
        value = reader.varint() !== 0;
        break;
      case 3:
        // As the JSON path reads intValue: a number, exact up to 2^53.
        value = Number(reader.int64());
        break;
      case 4:
        value = reader.double();
        break;
      case 5:
      case 6:
      case 7:
        // An array, map or bytes value: set last, it is the value, and not a scalar.
        value = undefined;
        reader.skip();
        break;
      default:
        reader.skip();
    }
  }
  return value;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
