import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { timedCheck } from '../health/timed-check';
import { TaskQueue } from './task.queue';
import { TaskStore } from './task.store';

/**
 * Readiness of tasks: the store (SQLite file, or Redis) and the queue (this
 * process, or BullMQ on Redis), each checked with a round trip of its own.
 * A store that cannot be read or written refuses every task, queued or new.
 */
@Injectable()
export class TasksHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly store: TaskStore,
    private readonly queue: TaskQueue,
  ) {}

  checkStore(key = 'task_store'): Promise<HealthIndicatorResult> {
    return timedCheck(this.indicator.check(key), () => this.store.ping(), {
      driver: this.store.kind,
    });
  }

  checkQueue(key = 'task_queue'): Promise<HealthIndicatorResult> {
    return timedCheck(this.indicator.check(key), () => this.queue.ping(), {
      driver: this.queue.kind,
    });
  }
}
