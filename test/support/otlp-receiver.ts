import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { decodeExportTraceServiceRequest, DecodedResourceSpans } from './otlp-protobuf';

/** One span as an OTLP/HTTP export carried it, in either encoding, with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  attributes: Record<string, string | number | boolean>;
  status: { code: 'unset' | 'ok' | 'error'; message?: string };
  /** The resource attributes of the batch it came in (service.name...). */
  resource: Record<string, string | number | boolean>;
  /** How the export that carried it was encoded (its Content-Type). */
  encoding: 'protobuf' | 'json';
}

/** A larger export (or gzip bomb) is refused: a runaway exporter cannot fill the test's memory. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const KINDS: ReceivedSpan['kind'][] = [
  'unspecified',
  'internal',
  'server',
  'client',
  'producer',
  'consumer',
];
const STATUS: ReceivedSpan['status']['code'][] = ['unset', 'ok', 'error'];

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

/**
 * An OpenTelemetry collector for tests: a real HTTP server taking OTLP/HTTP
 * exports on POST /v1/traces, protobuf or JSON by Content-Type (gzip or
 * not), and keeping every span in one shape whatever the encoding. Any other
 * Content-Type is answered 415 and a body that does not decode 400, so a
 * wrongly configured exporter shows instead of exporting into nothing.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests received, accepted or not. */
  requests = 0;
  /** Why each refused (400) export did not decode. */
  readonly refused: string[] = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    return receiver;
  }

  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  get baseUrl(): string {
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}`;
  }

  /** The traces URL, as tracing.endpoint takes it. */
  get tracesUrl(): string {
    return `${this.baseUrl}/v1/traces`;
  }

  /** The spans of one trace received so far. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** Polls (bounded) until `ready` holds for the spans received; returns them. */
  async waitFor(
    ready: (spans: ReceivedSpan[]) => boolean,
    what: string,
    timeoutMs = 15_000,
  ): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    while (!ready(this.spans)) {
      if (Date.now() > deadline) {
        const seen = this.spans.map((span) => `${span.name} (${span.traceId})`).join(', ');
        const refused = this.refused.length > 0 ? `; refused: ${this.refused.join('; ')}` : '';
        throw new Error(
          `OTLP receiver: timed out waiting for ${what}; received: ${seen}${refused}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.spans;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++;
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    const encoding = encodingOf(req.headers['content-type']);
    if (encoding === undefined) {
      res.writeHead(415).end();
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      res.writeHead(413).end();
      return;
    }
    let spans: ReceivedSpan[];
    try {
      const raw =
        req.headers['content-encoding'] === 'gzip'
          ? gunzipSync(body, { maxOutputLength: MAX_BODY_BYTES })
          : body;
      spans =
        encoding === 'json'
          ? jsonSpans(JSON.parse(raw.toString()) as OtlpExport)
          : protobufSpans(decodeExportTraceServiceRequest(raw));
    } catch (error) {
      // A body that does not decode is the exporter's fault to show, never the receiver's to crash on.
      const reason = error instanceof Error ? error.message : String(error);
      this.refused.push(reason);
      res.writeHead(400, { 'content-type': 'text/plain' }).end(reason);
      return;
    }
    this.spans.push(...spans);
    if (encoding === 'json') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    // An empty ExportTraceServiceResponse is zero bytes of protobuf.
    else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  }
}

function jsonSpans(payload: OtlpExport): ReceivedSpan[] {
  return (payload.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = flatten(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span): ReceivedSpan => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: KINDS[span.kind ?? 0] ?? 'unspecified',
        attributes: flatten(span.attributes),
        status: {
          code: STATUS[span.status?.code ?? 0] ?? 'unset',
          ...(span.status?.message ? { message: span.status.message } : {}),
        },
        resource,
        encoding: 'json',
      })),
    );
  });
}

function protobufSpans(request: DecodedResourceSpans[]): ReceivedSpan[] {
  return request.flatMap(({ resource, spans }) =>
    spans.map((span): ReceivedSpan => ({
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      name: span.name,
      kind: KINDS[span.kind] ?? 'unspecified',
      attributes: span.attributes,
      status: {
        code: STATUS[span.status.code] ?? 'unset',
        ...(span.status.message ? { message: span.status.message } : {}),
      },
      resource,
      encoding: 'protobuf',
    })),
  );
}

/** The OTLP/HTTP encoding a Content-Type names, if it is one. */
function encodingOf(contentType: string | undefined): ReceivedSpan['encoding'] | undefined {
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/x-protobuf') return 'protobuf';
  if (mediaType === 'application/json') return 'json';
  return undefined;
}

/** The body, or undefined past MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Scalar attributes only, as own properties (a key such as "__proto__" stays data), like the protobuf decoder's. */
function flatten(attributes: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(
    attributes.flatMap(({ key, value }): Array<[string, string | number | boolean]> => {
      if (value.stringValue !== undefined) return [[key, value.stringValue]];
      if (value.intValue !== undefined) return [[key, Number(value.intValue)]];
      if (value.doubleValue !== undefined) return [[key, value.doubleValue]];
      if (value.boolValue !== undefined) return [[key, value.boolValue]];
      return [];
    }),
  );
}
