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
}
