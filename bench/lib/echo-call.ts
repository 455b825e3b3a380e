import { ECHO_ARGS, ECHO_RESULT_TEXT } from '../shared/bench-tool';
import { Headers, rpc } from './mcp-http';

/** Where a load run sends its tools/call of an echo tool. */
export interface EchoEndpoint {
  /** For error messages. */
  label: string;
  url: string;
  headers: Headers;
  tool: string;
}

/** The JSON-RPC body of every load request: tools/call of `tool` with the bench's arguments. */
export function echoCallBody(tool: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: tool, arguments: ECHO_ARGS },
  });
}

/** One call before any load: the echo must be right; its exact body is then expected of every response. */
export async function verifiedEchoBody(endpoint: EchoEndpoint): Promise<string> {
  const reply = await rpc(endpoint.url, endpoint.headers, JSON.parse(echoCallBody(endpoint.tool)));
  const result = reply.message?.result;
  const content = result?.content as Array<{ text?: string }> | undefined;
  const right =
    reply.status === 200 && result?.isError !== true && content?.[0]?.text === ECHO_RESULT_TEXT;
  if (!right) {
    throw new Error(
      `${endpoint.label} answered tools/call wrongly: HTTP ${reply.status} ${reply.body.slice(0, 400)}`,
    );
  }
  return reply.body;
}
