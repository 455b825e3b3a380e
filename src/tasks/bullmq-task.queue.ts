import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { TaskRecord } from './task-record';
import { TaskRunner } from './task-runner';
import { TaskStore } from './task.store';
import { TaskQueue } from './task.queue';
import { isTerminal } from './tasks.constants';

const QUEUE_NAME = 'tasks';

interface TaskJob {
  taskId: string;
}

/**
 * Scale-out mode's queue (`state.driver: redis`): BullMQ on the shared
 * Redis. Every replica runs a worker; a replica that dies stops renewing its
 * job's lock, BullMQ's stalled-job check hands the job to another replica
 * after `tasks.lock_seconds`, and the task runs again there (the task record
 * counts the runs and ends it as interrupted past `tasks.max_attempts`).
 */
@Injectable()
export class BullmqTaskQueue
  extends TaskQueue
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  readonly kind = 'bullmq';
  private readonly logger = new Logger(BullmqTaskQueue.name);
  private readonly queue: Queue<TaskJob>;
  private worker?: Worker<TaskJob>;
  private readonly connection: { url: string; maxRetriesPerRequest: null };
  private readonly prefix: string;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly store: TaskStore,
    private readonly runner: TaskRunner,
  ) {
    super();
    // BullMQ's blocking commands need a connection that never gives up on a request.
    this.connection = { url: config.state.redis_url, maxRetriesPerRequest: null };
    this.prefix = `${config.state.key_prefix}bull`;
    this.queue = new Queue<TaskJob>(QUEUE_NAME, {
      connection: this.connection,
      prefix: this.prefix,
    });
    this.queue.on('error', (err) =>
      this.logger.warn({ msg: 'task queue error', error: err.message }),
    );
  }

  async enqueue(task: TaskRecord): Promise<void> {
    await this.queue.add(
      'run',
      { taskId: task.taskId },
      {
        jobId: task.taskId,
        // The task record counts runs; BullMQ only has to hand an interrupted job out again.
        attempts: this.config.tasks.max_attempts + 1,
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** One count of the queue's jobs: a round trip through the queue's own connection. */
  async ping(): Promise<void> {
    await this.queued();
  }

  /** Fails at once while the connection is away (BullMQ would wait for it to come back). */
  async queued(): Promise<number> {
    // Resolves once the connection was first ready; a Redis never reached keeps it waiting.
    const client = await this.queue.client;
    if (client.status !== 'ready') throw new Error(`connection ${client.status}`);
    return this.queue.count();
  }

  onApplicationBootstrap(): void {
    const lockMs = this.config.tasks.lock_seconds * 1000;
    this.worker = new Worker<TaskJob>(QUEUE_NAME, (job) => this.process(job), {
      connection: this.connection,
      prefix: this.prefix,
      concurrency: this.config.tasks.workers,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: this.config.tasks.max_attempts,
    });
    this.worker.on('error', (err) =>
      this.logger.warn({ msg: 'task worker error', error: err.message }),
    );
    // BullMQ gave up on a job (stalled too often): the task must still end, as interrupted.
    this.worker.on('failed', (job) => {
      if (job !== undefined) void this.endAbandoned(job.data.taskId);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    // Closing first: an open worker takes its interrupted job back, then waits on it forever.
    const closed = this.worker?.close().catch(() => undefined);
    // Runs stop now; their jobs go back to the queue (RunInterrupted) for another replica.
    this.runner.interruptAll();
    await closed;
    await this.queue.close().catch(() => undefined);
  }

  private async process(job: Job<TaskJob>): Promise<void> {
    // Throwing RunInterrupted fails this attempt of the job, so BullMQ queues it again.
    await this.runner.run(job.data.taskId);
  }

  /** Only once BullMQ will not hand the job out again (it emits `failed` for every failed attempt). */
  private async endAbandoned(taskId: string): Promise<void> {
    try {
      const state = await this.queue.getJobState(taskId);
      if (state !== 'failed' && state !== 'unknown') return;
      const task = await this.store.get(taskId);
      if (task !== undefined && !isTerminal(task.status)) await this.runner.interrupted(task);
    } catch (err) {
      this.logger.error({ msg: 'abandoned task not ended', taskId, error: String(err) });
    }
  }
}
