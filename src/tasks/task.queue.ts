import { TaskRecord } from './task-record';

/**
 * Where created tasks wait for a worker: in this process on the embedded
 * default (the SQLite store is its memory across restarts), on BullMQ in
 * scale-out mode (any replica's worker takes the next one, and a job whose
 * replica died is taken again by another).
 */
export abstract class TaskQueue {
  /** Hands the task to a worker; resolves once it is durably queued. */
  abstract enqueue(task: TaskRecord): Promise<void>;

  /** `local` or `bullmq`, for health details. */
  abstract readonly kind: string;

  /** A cheap round trip for health checks; rejects while tasks cannot be queued. */
  abstract ping(): Promise<void>;

  /** Tasks created and waiting for a worker (BullMQ: on every replica, since the queue is shared). */
  abstract queued(): Promise<number>;
}
