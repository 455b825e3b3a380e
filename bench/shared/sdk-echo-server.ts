import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { BENCH_TOOLS } from './bench-tool';

/** The official SDK's McpServer serving the same tools as the gateway (the SDK has no cost to declare). */
export function createSdkEchoServer(): McpServer {
  const server = new McpServer({ name: 'sdk-bench-server', version: '1.0.0' });
  for (const tool of BENCH_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: { text: z.string() } },
      ({ text }) => ({ content: [{ type: 'text', text: JSON.stringify({ text }) }] }),
    );
  }
  return server;
}
