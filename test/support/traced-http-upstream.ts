import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { once } from 'node:events';
import { createServer, IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';

/** What one tools/call brought to the upstream: its HTTP header and its `_meta`. */
export interface TracedCall {
  header?: string;
  meta?: string;
}

/**
 * A stateless SDK Streamable HTTP upstream with one tool, `echo`, that
 * records the `traceparent` of each call as its HTTP header and as its
 * `params._meta.traceparent`, so a test can check both reached it.
 */
export class TracedHttpUpstream {
  readonly calls: TracedCall[] = [];
  private readonly http: HttpServer;

  private constructor() {
    this.http = createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<TracedHttpUpstream> {
    const upstream = new TracedHttpUpstream();
    upstream.http.listen(0, '127.0.0.1');
    await once(upstream.http, 'listening');
    return upstream;
  }

  get url(): string {
    const { port } = this.http.address() as { port: number };
    return `http://127.0.0.1:${port}/mcp`;
  }

  async stop(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers.traceparent;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = new Server(
      { name: 'traced', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'echo', inputSchema: { type: 'object' as const, properties: {} } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const meta = request.params._meta?.traceparent;
      this.calls.push({
        header: typeof header === 'string' ? header : undefined,
        meta: typeof meta === 'string' ? meta : undefined,
      });
      const text = request.params.arguments?.text;
      return { content: [{ type: 'text', text: typeof text === 'string' ? text : '' }] };
    });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }
}
