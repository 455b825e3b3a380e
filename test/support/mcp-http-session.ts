import { openSse, SseConnection } from './sse-client';

/**
 * A bare Streamable HTTP MCP session over fetch: initialize, then JSON-RPC
 * requests on the session, each resolving with its response (read from a
 * JSON body or from the SSE stream the gateway answers with).
 */
export type JsonRpcReply = Record<string, unknown>;

export class McpHttpSession {
  private constructor(
    readonly baseUrl: string,
    readonly sessionId: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** `capabilities`: what the client declares (none by default; `{ sampling: {} }` to be asked to sample). */
  static async open(
    baseUrl: string,
    headers: Record<string, string> = {},
    capabilities: Record<string, unknown> = {},
  ): Promise<McpHttpSession> {
    const res = await post(baseUrl, headers, {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'owlclaw-e2e-fetch', version: '1.0.0' },
      },
    });
    const sessionId = res.headers.get('mcp-session-id');
    const reply = await readReply(res, 'init');
    if (!sessionId || !('result' in reply)) {
      throw new Error(`initialize failed: ${res.status} ${JSON.stringify(reply)}`);
    }
    const session = new McpHttpSession(baseUrl, sessionId, {
      ...headers,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    const ack = await post(baseUrl, session.headers, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    await ack.arrayBuffer();
    return session;
  }

  async request(id: string | number, method: string, params: object): Promise<JsonRpcReply> {
    const res = await post(this.baseUrl, this.headers, { jsonrpc: '2.0', id, method, params });
    return readReply(res, id);
  }

  /** A POST of one message whose answer is read as it arrives (an SSE stream, when the call streams). */
  postStream(message: object): Promise<SseConnection> {
    return openSse(
      `${this.baseUrl}/mcp`,
      this.headers,
      JSON.stringify({ jsonrpc: '2.0', ...message }),
    );
  }

  /** A GET event stream on `path` (the session's standalone stream by default), sent with the session's headers. */
  openStream(path = '/mcp'): Promise<SseConnection> {
    return openSse(`${this.baseUrl}${path}`, this.headers);
  }

  async close(): Promise<void> {
    const res = await fetch(`${this.baseUrl}/mcp`, { method: 'DELETE', headers: this.headers });
    await res.arrayBuffer();
  }
}

function post(baseUrl: string, headers: Record<string, string>, body: object): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  });
}

async function readReply(res: Response, id: string | number): Promise<JsonRpcReply> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return JSON.parse(text) as JsonRpcReply;
  }
  for (const block of text.replace(/\r\n/g, '\n').split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    const message = JSON.parse(data) as JsonRpcReply;
    if (message.id === id && !('method' in message)) return message;
  }
  throw new Error(`no response with id ${String(id)} in the SSE body:\n${text.slice(0, 2000)}`);
}
