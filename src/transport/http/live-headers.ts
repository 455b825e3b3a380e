import { ServerResponse } from 'node:http';

/**
 * A header bag for InboundContext.responseHeaders that writes straight onto
 * the response while its headers can still change: guards run before a POST
 * may switch to SSE, so their X-RateLimit-* headers reach either form.
 */
export function liveHeaders(res: ServerResponse): Record<string, string> {
  return new Proxy<Record<string, string>>(
    {},
    {
      set(target, name, value: string) {
        target[name as string] = value;
        if (!res.headersSent) res.setHeader(name as string, value);
        return true;
      },
    },
  );
}
