import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of one process in MiB (VmRSS), NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

/** The direct children of a process, from every thread's /proc children list. */
export function childPids(pid: number): number[] {
  const children = new Set<number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const child of list === '' ? [] : list.split(' ')) children.add(Number(child));
  }
  return [...children];
}

/** Every descendant of a process (children, their children, ...), at most `max` of them. */
export function descendantPids(pid: number, max = 10_000): number[] {
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined && found.length < max; next = queue.shift()) {
    let children: number[] = [];
    try {
      children = childPids(next);
    } catch {
      continue; // gone meanwhile
    }
    found.push(...children);
    queue.push(...children);
  }
  return found.slice(0, max);
}
