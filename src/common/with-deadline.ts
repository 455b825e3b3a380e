/**
 * Runs `work` and rejects with "no answer within `ms` ms" (prefixed with
 * `what` when given) when it is slower, so a dependency that hangs (a server
 * that accepts and never answers) cannot hold its caller. The timer never
 * outlives the race, nor keeps a stopping process alive.
 */
export async function withDeadline<T>(
  work: () => Promise<T> | T,
  ms: number,
  what?: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    const message = `no answer within ${ms} ms`;
    timer = setTimeout(() => reject(new Error(what ? `${what}: ${message}` : message)), ms);
    timer.unref();
  });
  try {
    // A synchronous throw of `work` becomes a rejection like any other failure.
    return await Promise.race([new Promise<T>((resolve) => resolve(work())), expired]);
  } finally {
    clearTimeout(timer);
  }
}
