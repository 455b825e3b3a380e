/**
 * Raw /mcp exchanges over fetch, for suites that check the wire itself: one
 * POST read whole, the handshake that opens a session, the DELETE that ends it.
 */

/** A POST /mcp answer, read whole. */
export interface McpPostAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The Mcp-Session-Id the answer carries (initialize opens one). */
  sessionId: string | null;
}

/** One POST /mcp with the headers every MCP client sends. */
export async function postMcp(
  baseUrl: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<McpPostAnswer> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
    sessionId: res.headers.get('mcp-session-id'),
  };
}

export async function deleteSession(baseUrl: string, sessionId: string): Promise<number> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'DELETE',
    headers: { 'mcp-session-id': sessionId },
  });
  await res.arrayBuffer();
  return res.status;
}

/** initialize + notifications/initialized over plain fetch; resolves with the session id. */
export async function openSession(baseUrl: string, protocolVersion: string): Promise<string> {
  const init = await postMcp(
    baseUrl,
    Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
    ),
  );
  if (init.status !== 200 || !init.sessionId) {
    throw new Error(`initialize failed: ${init.status} ${init.text}`);
  }
  const ack = await postMcp(
    baseUrl,
    Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
    { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': protocolVersion },
  );
  if (ack.status !== 202) throw new Error(`notifications/initialized got ${ack.status}`);
  return init.sessionId;
}

/** The JSON-RPC body of an answer, also when the gateway chose to answer with an SSE stream. */
