/** RFC 9110 field-value characters: visible ASCII, space, tab and obs-text (0x80-0xFF). */
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Why a value cannot be sent as an HTTP header, in our words: fetch's own
 * error quotes the whole value, which is often a secret.
 */
export function headerValueProblem(value: string): string | undefined {
  const at = value.search(INVALID_HEADER_CHAR);
  if (at < 0) return undefined;
  return `is not a valid HTTP header value: the character at index ${at} is not allowed (line breaks, control characters and characters above U+00FF are refused)`;
}
