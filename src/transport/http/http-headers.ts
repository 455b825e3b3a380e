import { IncomingMessage } from 'node:http';

export const SESSION_HEADER = 'mcp-session-id';
export const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';
export const LAST_EVENT_ID_HEADER = 'last-event-id';
/** W3C trace context: the caller's trace, which the request's span continues. */
export const TRACEPARENT_HEADER = 'traceparent';

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function acceptsEventStream(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

/** The caller's `traceparent` header as sent (parsed, and bounded, where it is used). */
export function traceparentOf(req: IncomingMessage): string | undefined {
  return headerValue(req, TRACEPARENT_HEADER);
}
