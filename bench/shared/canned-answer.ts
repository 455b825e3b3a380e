import { readFileSync } from 'node:fs';

export interface RpcRequest {
  id?: string | number | null;
  method?: string;
  params?: { arguments?: unknown };
}

export type CannedResults = Record<string, unknown>;

/** The results gateway (a) answered, by method: the JSON file BENCH_CANNED_RESULTS names. */
export function readCannedResults(): CannedResults {
  return JSON.parse(readFileSync(process.env.BENCH_CANNED_RESULTS ?? '', 'utf8')) as CannedResults;
}

/**
 * The gateway's JSON-RPC answer without the gateway, shared by the baselines
 * (c) and (e) so they send the same bytes: tools/call echoes its arguments as
 * the gateway's text block, any other method answers what gateway (a) did.
 */
export function cannedAnswer(request: RpcRequest, canned: CannedResults): unknown {
  const id = request.id ?? null;
  if (request.method === 'tools/call') {
    const text = JSON.stringify(request.params?.arguments ?? {});
    return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
  }
  const result = request.method === undefined ? undefined : canned[request.method];
  if (result === undefined) {
    return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }
  return { jsonrpc: '2.0', id, result };
}
