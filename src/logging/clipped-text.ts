/**
 * Text a client chose (its clientInfo, a version string), cut to `max`
 * characters for a log line, so that no client decides how long the gateway's
 * log lines are. A cut never splits a surrogate pair.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** A client-supplied value as JSON for a log line, and its full length when it had to be cut. */
export function clippedJson(value: unknown, max: number): { text: string; fullLength?: number } {
  const text = JSON.stringify(value) ?? '';
  return text.length <= max ? { text } : { text: clipText(text, max), fullLength: text.length };
}

/** Request ids and methods as a client sent them, in every line of the request. */
export const LOGGED_ID_MAX_CHARS = 128;
/** A tool, prompt or resource name (or URI) a client asked for. */
export const LOGGED_NAME_MAX_CHARS = 256;
/** A request's redacted arguments, at debug. */
export const LOGGED_ARGUMENTS_MAX_CHARS = 2048;

/** A JSON-RPC id as log lines carry it: text, cut to LOGGED_ID_MAX_CHARS. */
export function loggedId(id: string | number): string {
  return typeof id === 'string' ? clipText(id, LOGGED_ID_MAX_CHARS) : String(id);
}
