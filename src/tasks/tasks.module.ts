import { Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import {
  makeCounterProvider,
  makeGaugeProvider,
  makeHistogramProvider,
} from '@willsoto/nestjs-prometheus';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { GovernanceRedis } from '../governance/redis/governance-redis';
import { ServerCapabilities } from '../lifecycle/server-capabilities.service';
import { ToolExecutionModule } from '../tools/tool-execution.module';
import { ToolRegistryModule } from '../tools/tool-registry.module';
import { TasksAdminController } from './admin/tasks-admin.controller';
import { BullmqTaskQueue } from './bullmq-task.queue';
import { LocalTaskQueue } from './local-task.queue';
import { RedisTaskStore } from './redis-task.store';
import { SqliteTaskStore, tasksDatabasePath } from './sqlite-task.store';
import { TaskCancellation } from './task-cancellation';
import { TaskEvents } from './task-events';
import { TaskRunner } from './task-runner';
import { TaskSubscriptions } from './task-subscriptions';
import { TaskLauncher } from './task.launcher';
import { TaskStore } from './task.store';
import { TaskQueue } from './task.queue';
import {
  MCP_TASKS_CREATED_TOTAL,
  MCP_TASKS_FINISHED_TOTAL,
  MCP_TASKS_RUNNING,
  MCP_TASK_QUEUE_WAIT_SECONDS,
  MCP_TASK_RUN_SECONDS,
} from './tasks-metrics.constants';
import { TASKS_EXTENSION } from './tasks.constants';
import { TasksMethods } from './tasks.methods';
import { TasksHealthIndicator } from './tasks.health';
import { TasksMetrics } from './tasks.metrics';
import { TasksQueuedMetric } from './tasks-queued.metric';

/** Expired tasks are removed this often. */
const SWEEP_INTERVAL_MS = 60_000;

const SECONDS_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

/**
 * Long-running tool calls as MCP tasks (io.modelcontextprotocol/tasks):
 * the store and queue of the state driver in use (SQLite and this process's
 * workers, or Redis and BullMQ), the runner, tasks/get|update|cancel, and
 * notifications/tasks for listening streams, the admin API under
 * /admin/tasks, and the health checks and metrics. docs/tasks.md tells the story.
 */
@Module({
  imports: [ToolRegistryModule, ToolExecutionModule, TerminusModule],
  controllers: [TasksAdminController],
  providers: [
    {
      provide: TaskStore,
      inject: [GATEWAY_CONFIG, GovernanceRedis],
      useFactory: (config: GatewayConfig, redis: GovernanceRedis): TaskStore =>
        config.state.driver === 'redis' && redis.client !== undefined
          ? new RedisTaskStore(redis.client, redis.prefix, config.tasks.ttl_seconds * 1000)
          : new SqliteTaskStore(
              tasksDatabasePath(config.tasks.sqlite_path, config.ledger.sqlite_path),
            ),
    },
    {
      provide: TaskQueue,
      inject: [GATEWAY_CONFIG, TaskStore, TaskRunner],
      useFactory: (config: GatewayConfig, store: TaskStore, runner: TaskRunner): TaskQueue =>
        config.state.driver === 'redis'
          ? new BullmqTaskQueue(config, store, runner)
          : new LocalTaskQueue(config, store, runner),
    },
    TaskEvents,
    TaskRunner,
    TaskLauncher,
    TaskCancellation,
    TasksMethods,
    TaskSubscriptions,
    TasksMetrics,
    TasksQueuedMetric,
    TasksHealthIndicator,
    makeCounterProvider({
      name: MCP_TASKS_CREATED_TOTAL,
      help: 'Tool calls that became tasks, by tool',
      labelNames: ['tool'],
    }),
    makeCounterProvider({
      name: MCP_TASKS_FINISHED_TOTAL,
      help: 'Tasks ended on this replica, by final state (completed, failed, cancelled)',
      labelNames: ['state'],
    }),
    makeGaugeProvider({
      name: MCP_TASKS_RUNNING,
      help: 'Tasks running on this replica now',
    }),
    makeHistogramProvider({
      name: MCP_TASK_QUEUE_WAIT_SECONDS,
      help: 'Time from a task’s creation until its first run began',
      buckets: SECONDS_BUCKETS,
    }),
    makeHistogramProvider({
      name: MCP_TASK_RUN_SECONDS,
      help: 'Time one run of a task took, questions to the client included',
      buckets: SECONDS_BUCKETS,
    }),
  ],
  exports: [TaskLauncher, TaskSubscriptions, TaskStore, TaskRunner, TasksHealthIndicator],
})
export class TasksModule implements OnModuleInit, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly capabilities: ServerCapabilities,
    private readonly store: TaskStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    this.capabilities.declareExtension(TASKS_EXTENSION, {}, { statelessOnly: true });
    this.sweeper = setInterval(
      () => void this.store.sweep(Date.now()).catch(() => 0),
      SWEEP_INTERVAL_MS,
    );
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }
}
