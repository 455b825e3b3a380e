import { Injectable } from '@nestjs/common';
import { TaskEvents } from './task-events';
import { TaskRecord } from './task-record';
import { TaskRunner } from './task-runner';
import { TaskStore } from './task.store';
import { isTerminal } from './tasks.constants';

/**
 * Asks a task to stop, for tasks/cancel and DELETE /admin/tasks/{id} alike.
 * Cooperative: a task no run has begun ends cancelled at once; a running one
 * is told through the `cancel` event (its runner also re-reads the flag every
 * second) and ends cancelled unless it ends some other way first.
 */
@Injectable()
export class TaskCancellation {
  constructor(
    private readonly store: TaskStore,
    private readonly events: TaskEvents,
    private readonly runner: TaskRunner,
  ) {}

  /** The task as it stands once cancellation is requested; undefined when there is no such task. */
  async request(taskId: string): Promise<TaskRecord | undefined> {
    const task = await this.store.update(taskId, (current) =>
      isTerminal(current.status) || current.cancelRequested
        ? undefined
        : { ...current, cancelRequested: true, lastUpdatedAt: Date.now() },
    );
    if (task === undefined || isTerminal(task.status)) return task;
    // Repeated on a repeated request: both steps are harmless twice, and a lost event is not.
    if (task.attempts > 0) {
      this.events.publish({ taskId, kind: 'cancel' });
      return task;
    }
    await this.runner.cancelWaiting(taskId);
    return (await this.store.get(taskId)) ?? task;
  }
}
