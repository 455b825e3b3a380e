import { descendantsOf } from './support/process-table';

/**
 * A test that fails before it can stop what it started (a gateway, an
 * upstream) leaves a child process whose pipes keep Jest's process from
 * exiting: the run would hang until CI's limit. Each test file's environment
 * (test/support/process-leak.environment.ts) already kills what the file left;
 * whatever still runs below this process once every suite has finished (in
 * band: a test file's process) is named on stderr, so it can be fixed, and killed.
 */
export default function globalTeardown(): void {
  const leaked = descendantsOf(process.pid);
  if (leaked.length === 0) return;
  process.stderr.write(
    `global teardown: ${leaked.length} process(es) left running by tests, killed:\n` +
      leaked.map(({ pid, cmdline }) => `  ${pid} ${cmdline.trim().slice(0, 200)}\n`).join(''),
  );
  for (const { pid } of leaked) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited in the meantime.
    }
  }
}
