import { readdirSync, readFileSync } from 'node:fs';

/** Signals and waits on a process group led by a child we spawned (pgid == the child's pid). */

/** Sends `signal` to every process of the group; `false` when none is left. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether any process of the group still runs. Zombies do not count: a killed
 * grandchild is re-parented to PID 1, which may take its time to reap it (or,
 * in a container without an init, never does).
 */
export function processGroupAlive(pgid: number): boolean {
  if (!signalProcessGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  return liveMembers(pgid) > 0;
}

/** Resolves `true` once the group has no live process left, or `false` after `timeoutMs`. */
export async function waitForProcessGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  // Yielding to the event loop also lets Node reap the group leader, its own child.
  await new Promise((resolve) => setImmediate(resolve));
  while (processGroupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/** KILLs what is left of the group and waits (bounded) until it is gone. */
export async function killProcessGroup(pgid: number, timeoutMs: number): Promise<boolean> {
  signalProcessGroup(pgid, 'SIGKILL');
  return waitForProcessGroupExit(pgid, timeoutMs);
}

/** Processes of the group that are not zombies, from /proc/<pid>/stat. */
function liveMembers(pgid: number): number {
  let live = 0;
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[2]) === pgid && fields[0] !== 'Z') live++;
  }
  return live;
}

/** The fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, ... */
export function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}
