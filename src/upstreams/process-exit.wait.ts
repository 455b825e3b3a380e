/** Resolves `true` once no process has `pid`, or `false` when it still runs after `timeoutMs`. */
export async function waitForProcessExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() >= deadline) return false;
    // Yielding to the event loop also lets Node reap the child it spawned.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
