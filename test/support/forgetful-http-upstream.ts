import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';

/**
 * An SDK Streamable HTTP upstream that can forget its sessions, as one does when
 * it restarts: a request with an unknown session id then gets 404.
 */
export class ForgetfulHttpUpstream {
  readonly sessions = new Map<string, StreamableHTTPServerTransport>();
  initializations = 0;
  private readonly http: HttpServer;

  private constructor() {
    this.http = createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<ForgetfulHttpUpstream> {
    const upstream = new ForgetfulHttpUpstream();
    upstream.http.listen(0, '127.0.0.1');
    await once(upstream.http, 'listening');
    return upstream;
  }

  get url(): string {
    const { port } = this.http.address() as { port: number };
    return `http://127.0.0.1:${port}/mcp`;
  }

  forget(): void {
    this.sessions.clear();
  }

  async stop(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = this.sessions.get(sessionId);
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      await transport.handleRequest(req, res);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        this.initializations++;
        this.sessions.set(id, transport);
      },
    });
    await echoServer().connect(transport);
    await transport.handleRequest(req, res);
  }
}

function echoServer(): Server {
  const server = new Server(
    { name: 'forgetful', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'echo', inputSchema: { type: 'object' as const, properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [
      {
        type: 'text',
        text:
          typeof request.params.arguments?.text === 'string' ? request.params.arguments.text : '',
      },
    ],
  }));
  return server;
}
