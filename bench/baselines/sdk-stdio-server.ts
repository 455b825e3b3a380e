/** Stdio baseline: the official SDK's McpServer over its StdioServerTransport, same tool. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { exitOnSignals } from '../shared/listening';
import { createSdkEchoServer } from '../shared/sdk-echo-server';

exitOnSignals();
void createSdkEchoServer().connect(new StdioServerTransport());
