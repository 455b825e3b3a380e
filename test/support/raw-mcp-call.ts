import { Agent, IncomingHttpHeaders, request } from 'node:http';

/** The answer to one POST /mcp, its JSON-RPC reply taken from a JSON or SSE body. */
export interface RawMcpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  reply: Record<string, unknown>;
}

/**
 * One tools/call over node:http, on `agent`'s kept-alive connections or
 * (agent false) on a connection of its own. Rejects with the socket error
 * as Node reports it (`code` ECONNREFUSED, ECONNRESET, ...): nothing retries.
 */
export function rawToolCall(
  baseUrl: string,
  sessionId: string,
  id: string,
  name: string,
  args: object,
  agent: Agent | false,
): Promise<RawMcpAnswer> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/mcp`, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(body),
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.once('error', reject);
      res.once('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, reply: replyOf(text) });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    req.end(body);
  });
}

function replyOf(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed) as Record<string, unknown>;
  const data = trimmed
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .find((line) => line.startsWith('{'));
  if (data === undefined) throw new Error(`no JSON-RPC reply in: ${text.slice(0, 200)}`);
  return JSON.parse(data) as Record<string, unknown>;
}
