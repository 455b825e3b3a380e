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
