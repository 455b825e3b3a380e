import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { withDeadline } from '../common/with-deadline';
import { HEALTH_CHECK_TIMEOUT_MS } from '../health/health.constants';
import { ScrapeTimeGauge } from '../observability/scrape-time.gauge';
import { TaskQueue } from './task.queue';
import { MCP_TASKS_QUEUED } from './tasks-metrics.constants';

/**
 * mcp_tasks_queued, read at scrape time: tasks waiting for a worker. While
 * the queue cannot be read (Redis away) the last value read stays.
 */
@Injectable()
export class TasksQueuedMetric implements OnModuleInit, OnApplicationShutdown {
  private readonly gauge: ScrapeTimeGauge;

  constructor(queue: TaskQueue) {
    this.gauge = new ScrapeTimeGauge(
      {
        name: MCP_TASKS_QUEUED,
        help: 'Tasks waiting for a worker: on this replica (embedded queue), or in the BullMQ queue every replica shares (state.driver redis)',
      },
      (gauge) =>
        withDeadline(() => queue.queued(), HEALTH_CHECK_TIMEOUT_MS).then(
          (queued) => gauge.set(queued),
          () => undefined,
        ),
    );
  }

  onModuleInit(): void {
    this.gauge.start();
  }

  onApplicationShutdown(): void {
    this.gauge.stop();
  }
}
