import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';
import { relative } from 'node:path';
import { descendantsOf, eventually } from './process-table';

/** How long a file's processes get to finish exiting (a stop sent, not awaited) before they count as left behind. */
const SETTLE_MS = 10_000;
/** How long handles (timers, sockets, pipes) get to close before OWLCLAW_TEST_OPEN_HANDLES=1 names them. */
const HANDLES_SETTLE_MS = 5_000;

/**
 * Jest's Node environment, plus: once a test file is done, every process it
 * started that still runs below this process (a Jest worker, or Jest itself in
 * band) is named on stderr with the file, and killed. A process left running
 * keeps a worker from exiting (Jest then force-exits it, and the orphan
 * outlives the run, where no global teardown can see it). With
 * OWLCLAW_TEST_OPEN_HANDLES=1 it also names the kinds of handle the file left
 * open (what keeps a worker, or Jest in band, from exiting after the run).
 */
export default class ProcessLeakEnvironment extends TestEnvironment {
  private readonly file: string;
  private processesBefore = new Set<number>();
  private handlesBefore = new Map<string, number>();

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.file = relative(config.projectConfig.rootDir, context.testPath);
  }

  override async setup(): Promise<void> {
    await super.setup();
    this.processesBefore = new Set(descendantsOf(process.pid).map((row) => row.pid));
    this.handlesBefore = handleCounts();
  }

  override async teardown(): Promise<void> {
    await this.killLeftProcesses();
    if (process.env.OWLCLAW_TEST_OPEN_HANDLES === '1') await this.nameLeftHandles();
    await super.teardown();
  }

  private async killLeftProcesses(): Promise<void> {
    const left = () =>
      descendantsOf(process.pid).filter((row) => !this.processesBefore.has(row.pid));
    if (await eventually(() => left().length === 0, SETTLE_MS)) return;
    const leaked = left();
    process.stderr.write(
      `${this.file}: ${leaked.length} process(es) left running, killed:\n` +
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

  private async nameLeftHandles(): Promise<void> {
    const extra = () =>
      [...handleCounts()]
        .filter(([kind, count]) => count > (this.handlesBefore.get(kind) ?? 0))
        .map(([kind, count]) => `${kind} +${count - (this.handlesBefore.get(kind) ?? 0)}`);
    if (await eventually(() => extra().length === 0, HANDLES_SETTLE_MS)) return;
    process.stderr.write(`${this.file}: open handles left: ${extra().join(', ')}\n`);
  }
}

/** The kinds of handle keeping this process alive, counted. */
function handleCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}
