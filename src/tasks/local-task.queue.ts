import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { TaskRecord } from './task-record';
import { RunInterrupted, TaskRunner } from './task-runner';
import { TaskStore } from './task.store';
import { TaskQueue } from './task.queue';

/**
 * The embedded default's queue: tasks are already durable in the SQLite
 * store, so the queue is the order of this process's workers
 * (`tasks.workers` at once). At start it takes up what the last process
 * left: tasks never started are queued again, tasks whose run died with it
 * run again until `tasks.max_attempts` runs have begun, then fail as
 * interrupted.
 */
@Injectable()
export class LocalTaskQueue
  extends TaskQueue
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  readonly kind = 'local';
  private readonly logger = new Logger(LocalTaskQueue.name);
  private readonly waiting: string[] = [];
  private readonly running = new Set<string>();
  private stopped = false;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly store: TaskStore,
    private readonly runner: TaskRunner,
  ) {
    super();
  }

  enqueue(task: TaskRecord): Promise<void> {
    this.waiting.push(task.taskId);
    this.pump();
    return Promise.resolve();
  }

  /** The queue is this process's memory: it answers while the process does. */
  ping(): Promise<void> {
    return Promise.resolve();
  }

  queued(): Promise<number> {
    return Promise.resolve(this.waiting.length);
  }

  async onApplicationBootstrap(): Promise<void> {
    const left = await this.store.unfinished();
    for (const task of left) {
      // An ending claimed by the process before this one died with it: free it for a new one.
      if (task.endedBy !== undefined) {
        await this.store.update(task.taskId, (current) => ({
          ...current,
          endedBy: undefined,
          endingSince: undefined,
        }));
      }
      if (task.attempts >= this.config.tasks.max_attempts) await this.runner.interrupted(task);
      else this.waiting.push(task.taskId);
    }
    if (left.length > 0) {
      this.logger.log({ msg: 'tasks taken up after a restart', tasks: left.length });
    }
    this.pump();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.runner.interruptAll();
  }

  private pump(): void {
    while (
      !this.stopped &&
      this.running.size < this.config.tasks.workers &&
      this.waiting.length > 0
    ) {
      const taskId = this.waiting.shift()!;
      this.running.add(taskId);
      this.runner
        .run(taskId)
        .catch((err: unknown) => {
          // Interrupted by shutdown: the next process takes the task up.
          if (err instanceof RunInterrupted) return;
          this.logger.error({ msg: 'task run failed', taskId, error: String(err) });
        })
        .finally(() => {
          this.running.delete(taskId);
          this.pump();
        });
    }
  }
}
