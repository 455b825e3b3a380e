import { readdirSync, readFileSync } from 'node:fs';
import { statFields } from '../../src/upstreams/process-group';

/** Reads of the Linux process table (/proc) for tests that count processes. */

export interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  cmdline: string;
}

export function processTable(): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (!fields) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    rows.push({
      pid: Number(entry),
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      state: fields[0],
      cmdline,
    });
  }
  return rows;
}

/** Live (not zombie) processes whose command line contains `marker`. */
export function liveProcessesWith(marker: string): ProcessRow[] {
  return processTable().filter((row) => row.state !== 'Z' && row.cmdline.includes(marker));
}

/** Whether `pid` runs and is not a zombie. */
export function isLive(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z';
}

/** Live processes of a process group. */
export function liveGroupMembers(pgid: number): ProcessRow[] {
  return processTable().filter((row) => row.pgid === pgid && row.state !== 'Z');
}

/** Polls `check` every 20 ms until it holds or `timeoutMs` passes (a generous wait, not a timing assertion). */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Every live (not zombie) process below `root`, children and their descendants, from one read. */
export function descendantsOf(root: number): ProcessRow[] {
  const rows = processTable();
  const found: ProcessRow[] = [];
  const parents = new Set([root]);
  // Each pass adds one generation; a process tree is finite and acyclic.
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (parents.has(row.ppid) && !parents.has(row.pid)) {
        parents.add(row.pid);
        if (row.state !== 'Z') found.push(row);
        grew = true;
      }
    }
  }
  return found;
}
