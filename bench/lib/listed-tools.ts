import { setTimeout as delay } from 'node:timers/promises';
import { Headers, rpc } from './mcp-http';

const POLL_MS = 100;

/**
 * Polls the gateway's tools/list until every name in `names` is listed:
 * upstream tools appear only once their server has connected and answered
 * its own tools/list. Returns the milliseconds it took.
 */
export async function waitForListedTools(
  url: string,
  headers: Headers,
  names: readonly string[],
  timeoutMs: number,
): Promise<number> {
  const start = Date.now();
  let missing = [...names];
  while (Date.now() - start < timeoutMs) {
    const listed = await listedNames(url, headers);
    missing = names.filter((name) => !listed.has(name));
    if (missing.length === 0) return Date.now() - start;
    await delay(POLL_MS);
  }
  throw new Error(
    `tools not listed after ${timeoutMs} ms: ${missing.slice(0, 5).join(', ')}` +
      (missing.length > 5 ? ` and ${missing.length - 5} more` : ''),
  );
}

/** Every name of every tools/list page. */
async function listedNames(url: string, headers: Headers): Promise<Set<string>> {
  const names = new Set<string>();
  let cursor: string | undefined;
  // A bound on pages: a bench gateway lists a handful of tools.
  for (let page = 0; page < 100; page++) {
    const reply = await rpc(url, headers, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: cursor === undefined ? {} : { cursor },
    });
    const result = reply.message?.result as
      { tools?: Array<{ name?: string }>; nextCursor?: string } | undefined;
    for (const tool of result?.tools ?? []) if (tool.name) names.add(tool.name);
    cursor = result?.nextCursor;
    if (cursor === undefined) break;
  }
  return names;
}
