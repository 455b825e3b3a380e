import { once } from 'node:events';
import { createServer, Server } from 'node:http';

/** What the sink took in since it started. */
export interface SinkCounts {
  exports: number;
  spans: number;
  bytes: number;
}

/** Each span of an OTLP/JSON export has one `"spanId"` key (parents are `"parentSpanId"`). */
const SPAN_KEY = Buffer.from('"spanId"');

/**
 * The collector of the tracing cell: an HTTP server in the bench process
 * that accepts OTLP/JSON exports on POST /v1/traces and discards them,
 * counting spans without parsing (so it takes as little as possible of the
 * CPU the load generator shares with it).
 */
export class OtlpSink {
  readonly counts: SinkCounts = { exports: 0, spans: 0, bytes: 0 };

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpSink> {
    const server = createServer();
    const sink = new OtlpSink(server);
    server.on('request', (req, res) => {
      req.on('data', (chunk: Buffer) => {
        sink.counts.bytes += chunk.length;
        sink.counts.spans += occurrences(chunk, SPAN_KEY);
      });
      req.on('end', () => {
        sink.counts.exports++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
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

/** Occurrences of `key` in `chunk`; a key split across two chunks is missed (a count, not an audit). */
function occurrences(chunk: Buffer, key: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(key); at !== -1; at = chunk.indexOf(key, at + key.length)) count++;
  return count;
}
