/**
 * Baseline (d): the official SDK's stateless Streamable HTTP server, as its
 * `simpleStatelessStreamableHttp` example builds it: on express
 * (createMcpExpressApp), a new McpServer and StreamableHTTPServerTransport
 * (sessionIdGenerator undefined) per request, closed when the response closes.
 * The example's per-request console.log is left out.
 */
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import { AddressInfo } from 'node:net';
import { announceListening, exitOnSignals } from '../shared/listening';
import { createSdkEchoServer } from '../shared/sdk-echo-server';

async function handle(req: Request, res: Response): Promise<void> {
  const server = createSdkEchoServer();
  try {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
  } catch (error) {
    process.stderr.write(`Error handling MCP request: ${String(error)}\n`);
    if (!res.headersSent) {
      res.status(500).json({
        jsonrpc: '2.0',
        error: { code: -32603, message: 'Internal server error' },
        id: null,
      });
    }
  }
}

const app = createMcpExpressApp();
app.post('/mcp', (req: Request, res: Response) => void handle(req, res));
const listener = app.listen(0, '127.0.0.1', () =>
  announceListening((listener.address() as AddressInfo).port),
);
exitOnSignals();
