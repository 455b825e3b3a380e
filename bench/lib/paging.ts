import { Headers, rpc } from './mcp-http';
import { msSince } from './stats';

export interface PagedFetch {
  items: number;
  pages: number;
  totalMs: number;
  /** The slowest single page request. */
  slowestPageMs: number;
}

/** Fetches every page of an MCP list method (`tools/list`, `resources/list`), one request at a time. */
export async function fetchAllPages(
  url: string,
  headers: Headers,
  method: string,
  key: string,
): Promise<PagedFetch> {
  let cursor: string | undefined;
  let items = 0;
  let pages = 0;
  let slowestPageMs = 0;
  const start = process.hrtime.bigint();
  do {
    const pageStart = process.hrtime.bigint();
    const reply = await rpc(url, headers, {
      jsonrpc: '2.0',
      id: pages + 1,
      method,
      params: cursor === undefined ? {} : { cursor },
    });
    slowestPageMs = Math.max(slowestPageMs, msSince(pageStart));
    const result = reply.message?.result;
    const list = result?.[key];
    if (!Array.isArray(list))
      throw new Error(`${method} page ${pages + 1}: ${reply.body.slice(0, 300)}`);
    items += list.length;
    pages++;
    cursor = typeof result?.nextCursor === 'string' ? result.nextCursor : undefined;
  } while (cursor !== undefined);
  return { items, pages, totalMs: msSince(start), slowestPageMs };
}

/** One page (the first): its item count. */
export async function fetchFirstPage(
  url: string,
  headers: Headers,
  method: string,
  key: string,
): Promise<number> {
  const reply = await rpc(url, headers, { jsonrpc: '2.0', id: 1, method, params: {} });
  const list = reply.message?.result?.[key];
  if (!Array.isArray(list)) throw new Error(`${method}: ${reply.body.slice(0, 300)}`);
  return list.length;
}
