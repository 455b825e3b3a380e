import { ProtobufReader, WIRE_LEN } from '../shared/protobuf-reader';

/** Each span of an OTLP/JSON export has one `"spanId"` key (parents are `"parentSpanId"`). */
const JSON_SPAN_KEY = Buffer.from('"spanId"');

/** How an OTLP/HTTP export is encoded, by its Content-Type; JSON unless it says protobuf. */
export function otlpEncoding(contentType: string | undefined): 'protobuf' | 'json' {
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return mediaType === 'application/x-protobuf' ? 'protobuf' : 'json';
}

/**
 * The spans in one OTLP/HTTP export body without decoding them (the sink
 * shares its core with the load generator). Throws ProtobufWireError on a
 * protobuf body that is not well formed.
 */
export function countOtlpSpans(body: Buffer, encoding: 'protobuf' | 'json'): number {
  return encoding === 'protobuf' ? countProtobufSpans(body) : countJsonSpans(body);
}

/** ExportTraceServiceRequest: resource_spans (1) -> scope_spans (2) -> spans (2), each span stepped over whole. */
export function countProtobufSpans(body: Uint8Array): number {
  let spans = 0;
  const request = new ProtobufReader(body);
  while (request.next()) {
    if (request.field !== 1 || request.wireType !== WIRE_LEN) {
      request.skip();
      continue;
    }
    const resourceSpans = request.message();
    while (resourceSpans.next()) {
      if (resourceSpans.field !== 2 || resourceSpans.wireType !== WIRE_LEN) {
        resourceSpans.skip();
        continue;
      }
      const scopeSpans = resourceSpans.message();
      while (scopeSpans.next()) {
        if (scopeSpans.field === 2 && scopeSpans.wireType === WIRE_LEN) spans++;
        scopeSpans.skip();
      }
    }
  }
  return spans;
}

/** A byte search: a count, not an audit (span links, which the gateway never makes, would count too). */
export function countJsonSpans(body: Buffer): number {
  let count = 0;
  for (
    let at = body.indexOf(JSON_SPAN_KEY);
    at !== -1;
    at = body.indexOf(JSON_SPAN_KEY, at + JSON_SPAN_KEY.length)
  ) {
    count++;
  }
  return count;
}
