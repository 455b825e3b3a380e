import { LATEST_PROTOCOL_VERSION } from '../../../src/json-rpc/protocol-version';

/**
 * Plain-fetch /mcp exchanges carrying a Bearer token, for suites that check the wire of OAuth
 * refusals: the status, the `WWW-Authenticate` challenge and the JSON-RPC body.
 */

export interface BearerAnswer {
  status: number;
  /** The `WWW-Authenticate` header, or null. */
  challenge: string | null;
  sessionId: string | null;
  /** The JSON-RPC message of the answer (read from an SSE stream when the gateway chose one). */
  body: Record<string, unknown> | undefined;
}

export interface BearerRequest {
  method?: 'POST' | 'GET' | 'DELETE';
  token?: string;
  sessionId?: string;
  body?: unknown;
}

export async function mcpRequest(baseUrl: string, request: BearerRequest): Promise<BearerAnswer> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  if (request.sessionId !== undefined) headers['mcp-session-id'] = request.sessionId;
  const method = request.method ?? 'POST';
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/mcp`, {
    method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: controller.signal,
  });
  // An accepted GET opens an endless SSE stream: read nothing of it.
  const streaming = method === 'GET' && res.ok;
  const text = streaming ? '' : await res.text();
  if (streaming) controller.abort();
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    sessionId: res.headers.get('mcp-session-id'),
    body: jsonRpcMessageOf(text),
  };
}

/** A JSON-RPC request frame. */
export function rpc(id: number, method: string, params: Record<string, unknown> = {}): object {
  return { jsonrpc: '2.0', id, method, params };
}

export function initializeFrame(id = 1): object {
  return rpc(id, 'initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'oauth-refusals', version: '1' },
  });
}

/** initialize + notifications/initialized with `token`; resolves with the session id. */
export async function openSessionWith(baseUrl: string, token: string): Promise<string> {
  const init = await mcpRequest(baseUrl, { token, body: initializeFrame() });
  if (init.status !== 200 || !init.sessionId) {
    throw new Error(`initialize failed: ${init.status} ${JSON.stringify(init.body)}`);
  }
  const ack = await mcpRequest(baseUrl, {
    token,
    sessionId: init.sessionId,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  if (ack.status !== 202) throw new Error(`notifications/initialized got ${ack.status}`);
  return init.sessionId;
}

/** The parameters of a `Bearer k="v", ...` challenge. */
export function challengeParams(challenge: string | null): Record<string, string> {
  if (challenge === null || !challenge.startsWith('Bearer ')) {
    throw new Error(`not a Bearer challenge: ${challenge}`);
  }
  const params: Record<string, string> = {};
  for (const [, name, value] of challenge.slice(7).matchAll(/([a-z_]+)="([^"]*)"/g)) {
    params[name] = value;
  }
  return params;
}

function jsonRpcMessageOf(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  if (text.trimStart().startsWith('{')) return JSON.parse(text) as Record<string, unknown>;
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .find((line) => line.startsWith('{') && line.includes('"jsonrpc"'));
  return data === undefined ? undefined : (JSON.parse(data) as Record<string, unknown>);
}
