import { TASK_RUN_STARTED } from '../fixtures/task-runs-fixture.capability';

/** How many runs of the fixture task `label` a gateway's log shows it started. */
export function runsStarted(stderr: string, label: string): number {
  let runs = 0;
  for (const line of stderr.split('\n')) {
    if (!line.includes(TASK_RUN_STARTED)) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; label?: string };
      if (entry.msg === TASK_RUN_STARTED && entry.label === label) runs++;
    } catch {
      // A line cut by a kill, or not a log entry: not a run.
    }
  }
  return runs;
}
