import { readdirSync, readFileSync } from 'node:fs';

/**
 * A test that fails before it can stop what it started (a gateway, an
 * upstream) leaves a child process whose pipes keep Jest's process from
 * exiting: the run would hang until CI's limit. Once every suite has
 * finished, whatever still runs below this process is a leak: it is named on
 * stderr, so it can be fixed, and killed.
 */
export default function globalTeardown(): void {
  const leaked = descendantsOf(process.pid);
  if (leaked.length === 0) return;
  process.stderr.write(
    `global teardown: ${leaked.length} process(es) left running by tests, killed:\n` +
      leaked.map(({ pid, command }) => `  ${pid} ${command}\n`).join(''),
  );
  for (const { pid } of leaked) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited in the meantime.
    }
  }
}

interface ProcessEntry {
  pid: number;
  parent: number;
  command: string;
}

/** Every process below `root`, read from /proc (Linux; elsewhere nothing is found). */
function descendantsOf(root: number): ProcessEntry[] {
  const all = listProcesses();
  const found: ProcessEntry[] = [];
  const parents = new Set([root]);
  // Each pass adds one generation; a process tree is finite and acyclic.
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of all) {
      if (parents.has(entry.parent) && !parents.has(entry.pid)) {
        parents.add(entry.pid);
        found.push(entry);
        grew = true;
      }
    }
  }
  return found;
}

function listProcesses(): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const entries: ProcessEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name is in parentheses and may contain spaces; the parent pid follows the state.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      entries.push({
        pid: Number(name),
        parent: Number(fields[1]),
        command: command.slice(0, 200),
      });
    } catch {
      // Exited while being read.
    }
  }
  return entries;
}
