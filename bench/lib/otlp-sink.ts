import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { countOtlpSpans, otlpEncoding } from './otlp-span-count';

/** What the sink took in since it started. */
export interface SinkCounts {
  exports: number;
  spans: number;
  bytes: number;
}

/**
 * The collector of the tracing cell: an HTTP server in the bench process
 * that accepts OTLP/HTTP exports on POST /v1/traces, protobuf (the gateway's
 * default) or JSON, and discards them, counting spans without decoding them
 * (so it takes as little as possible of the CPU the load generator shares
 * with it). A body that does not parse is answered 400 and its spans are not
 * counted, so a broken export shows in the spans per request.
 */
export class OtlpSink {
  readonly counts: SinkCounts = { exports: 0, spans: 0, bytes: 0 };

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpSink> {
    const server = createServer();
    const sink = new OtlpSink(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => {
        sink.counts.bytes += chunk.length;
        chunks.push(chunk);
      });
      req.on('end', () => {
        sink.counts.exports++;
        const encoding = otlpEncoding(req.headers['content-type']);
        try {
          sink.counts.spans += countOtlpSpans(Buffer.concat(chunks), encoding);
        } catch {
          res.writeHead(400).end();
          return;
        }
        // A collector's empty answer: zero bytes of protobuf, or an empty JSON object.
        if (encoding === 'protobuf') {
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return sink;
  }

  get tracesUrl(): string {
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}/v1/traces`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
