/**
 * Runs `work` and rejects with "no answer within `ms` ms" when it is
 * slower, so a dependency that hangs (a server that accepts and never
 * answers) cannot hold its caller; the timer never outlives the race.
 */
export async function withDeadline<T>(work: () => Promise<T> | T, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    // A synchronous throw of `work` becomes a rejection like any other failure.
    return await Promise.race([new Promise<T>((resolve) => resolve(work())), expired]);
  } finally {
    clearTimeout(timer);
  }
}
