/** `work`, or a rejection naming `what` once `ms` passed without an answer. */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    // A check still waiting must not keep a stopping process alive.
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error's message for a summary, cut short: driver errors can be long. */
export function reasonOf(err: unknown, max: number): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
