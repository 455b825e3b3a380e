import type { Progress, Task } from '@modelcontextprotocol/sdk/types.js';
import { UPSTREAM_TASK_LIMITS } from './upstream-task.limits';

type ProgressSink = (progress: Progress) => void;

/**
 * Relays an upstream task's progress to the caller as one increasing value:
 * its notifications/progress as they come, and each new statusMessage a
 * small step past the last value, since a caller's progress may only grow.
 * Every sign of life (a report, a status change) is also told to `alive`.
 */
export class UpstreamTaskProgress {
  private value = 0;
  private total?: number;
  private lastStatus?: string;
  private sink?: ProgressSink;
  private alive: () => void;

  constructor(sink: ProgressSink | undefined, alive: () => void) {
    this.sink = sink;
    this.alive = alive;
  }

  /** The onprogress of the task-augmented tools/call: the SDK keeps it for the task's lifetime. */
  readonly onprogress = (report: Progress): void => {
    this.alive();
    // Also refuses NaN: a report that does not move forward says nothing new.
    if (!(report.progress > this.value)) return;
    this.value = report.progress;
    if (report.total !== undefined) this.total = report.total;
    this.relay(report.message);
  };

  /** What tasks/get (or the CreateTaskResult) said of the task. */
  status(task: Pick<Task, 'status' | 'statusMessage'>): void {
    const seen = `${task.status}\n${task.statusMessage ?? ''}`;
    if (seen === this.lastStatus) return;
    this.lastStatus = seen;
    this.alive();
    if (task.statusMessage === undefined) return;
    this.value += UPSTREAM_TASK_LIMITS.statusStep;
    this.relay(task.statusMessage);
  }

  /** Lets go of the caller and the deadline once the task is over (late reports change nothing). */
  detach(): void {
    this.sink = undefined;
    this.alive = () => undefined;
  }

  private relay(message: string | undefined): void {
    const report: Progress = { progress: this.value };
    if (this.total !== undefined) report.total = this.total;
    if (message !== undefined) report.message = bounded(message);
    this.sink?.(report);
  }
}

/** An upstream chooses its messages: a caller's progress (or a task's status) stays readable. */
function bounded(message: string): string {
  const max = UPSTREAM_TASK_LIMITS.maxMessageChars;
  return message.length <= max ? message : `${message.slice(0, max - 1)}…`;
}
