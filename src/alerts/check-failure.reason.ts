/** An error's message for a summary, cut short: driver errors can be long. */
export function reasonOf(err: unknown, max: number): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
