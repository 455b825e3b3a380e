import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge, Histogram } from 'prom-client';
import {
  MCP_TASKS_CREATED_TOTAL,
  MCP_TASKS_FINISHED_TOTAL,
  MCP_TASKS_RUNNING,
  MCP_TASK_QUEUE_WAIT_SECONDS,
  MCP_TASK_RUN_SECONDS,
} from './tasks-metrics.constants';

/** Tasks created and ended (by final state), running on this replica, their queue wait and run time. */
@Injectable()
export class TasksMetrics {
  constructor(
    @InjectMetric(MCP_TASKS_CREATED_TOTAL) private readonly createdTotal: Counter<'tool'>,
    @InjectMetric(MCP_TASKS_FINISHED_TOTAL) private readonly finishedTotal: Counter<'state'>,
    @InjectMetric(MCP_TASKS_RUNNING) private readonly running: Gauge,
    @InjectMetric(MCP_TASK_QUEUE_WAIT_SECONDS) private readonly waits: Histogram,
    @InjectMetric(MCP_TASK_RUN_SECONDS) private readonly runs: Histogram,
  ) {}

  created(tool: string): void {
    this.createdTotal.inc({ tool });
  }

  finished(state: string): void {
    this.finishedTotal.inc({ state });
  }

  runStarted(): void {
    this.running.inc();
  }

  queueWait(ms: number): void {
    this.waits.observe(ms / 1000);
  }

  runTime(ms: number): void {
    this.running.dec();
    this.runs.observe(ms / 1000);
  }
}
