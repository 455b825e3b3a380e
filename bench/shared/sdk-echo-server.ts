import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { BENCH_TOOL } from './bench-tool';

/** The official SDK's McpServer serving the same trivial tool as the gateway. */
export function createSdkEchoServer(): McpServer {
  const server = new McpServer({ name: 'sdk-bench-server', version: '1.0.0' });
  server.registerTool(
    BENCH_TOOL.name,
    { description: BENCH_TOOL.description, inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ text }) }] }),
  );
  return server;
}
