/** Minimal MCP-over-HTTP client helpers for setting up and checking benchmark targets. */

export const PROTOCOL_VERSION = '2025-11-25';
export const BENCH_CLIENT_ID = 'bench-client';

export type Headers = Record<string, string>;

export interface RpcReply {
  status: number;
  headers: globalThis.Headers;
  /** The raw body as received. */
  body: string;
  /** The JSON-RPC message: the body itself, or the last `data:` of an SSE body. */
  message: JsonRpcReply | undefined;
}

export interface JsonRpcReply {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The headers every benchmark request carries; the gateway also gets its session. */
export function mcpHeaders(sessionId?: string): Headers {
  const headers: Headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    'x-mcp-client-id': BENCH_CLIENT_ID,
  };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return headers;
}

export async function rpc(url: string, headers: Headers, body: unknown): Promise<RpcReply> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text, message: parseMessage(text) };
}

/** initialize + notifications/initialized; returns the session id the server assigned. */
export async function openSession(url: string): Promise<string> {
  const init = await rpc(url, mcpHeaders(), {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'owlclaw-bench', version: '1.0.0' },
    },
  });
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sessionId || !init.message?.result) {
    throw new Error(`initialize failed: HTTP ${init.status} ${init.body.slice(0, 300)}`);
  }
  const ack = await rpc(url, mcpHeaders(sessionId), {
    jsonrpc: '2.0',
    method: 'notifications/initialized',
  });
  if (ack.status !== 202) throw new Error(`notifications/initialized: HTTP ${ack.status}`);
  return sessionId;
}

function parseMessage(body: string): JsonRpcReply | undefined {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed) as JsonRpcReply;
  const data = trimmed
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim())
    .filter((line) => line.startsWith('{'));
  const last = data.at(-1);
  return last === undefined ? undefined : (JSON.parse(last) as JsonRpcReply);
}
