import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The W3C header an HTTP upstream reads the caller's trace from. */
export const TRACEPARENT_HEADER = 'traceparent';

/**
 * The fetch of an HTTP upstream's transport: every message it POSTs to the
 * upstream carries the `traceparent` of the gateway request it serves, so
 * the upstream's HTTP layer joins the trace as well as its MCP layer
 * (`_meta`). Requests elsewhere (an OAuth server) get nothing.
 */
export function tracedFetch(upstreamUrl: URL, traceparent: () => string | undefined): FetchLike {
  const origin = `${upstreamUrl.origin}/`;
  return (url, init) => {
    const value = init?.method === 'POST' ? traceparent() : undefined;
    if (value === undefined || !String(url).startsWith(origin)) return fetch(url, init);
    const headers = new Headers(init?.headers);
    headers.set(TRACEPARENT_HEADER, value);
    return fetch(url, { ...init, headers });
  };
}
