import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** One span as the OTLP/JSON export carried it, with its attributes flattened. */
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
}

/** A larger export is refused (413): a runaway exporter cannot fill the test's memory. */
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
 * An OpenTelemetry collector for tests: a real HTTP server taking OTLP/JSON
 * exports on POST /v1/traces (gzip or not; the OTLP/HTTP exporter sends
 * JSON) and keeping every span. Protobuf is answered 415, so a wrongly
 * configured exporter shows instead of exporting into nothing.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests received, accepted or not. */
  requests = 0;
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
        throw new Error(`OTLP receiver: timed out waiting for ${what}; received: ${seen}`);
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
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      res.writeHead(415).end();
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      res.writeHead(413).end();
      return;
    }
    const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString();
    this.collect(JSON.parse(text) as OtlpExport);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }

  private collect(payload: OtlpExport): void {
    for (const resourceSpans of payload.resourceSpans ?? []) {
      const resource = flatten(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
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
          });
        }
      }
    }
  }
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

function flatten(attributes: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  const flat: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes) {
    if (value.stringValue !== undefined) flat[key] = value.stringValue;
    else if (value.intValue !== undefined) flat[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) flat[key] = value.doubleValue;
    else if (value.boolValue !== undefined) flat[key] = value.boolValue;
  }
  return flat;
}
