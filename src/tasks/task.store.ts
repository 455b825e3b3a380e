import { TaskFilter, TaskRecord } from './task-record';

/** Why a task was not created: the client's or the whole gateway's share of active tasks is full. */
export type CreateOutcome = 'created' | 'client_limit' | 'gateway_limit';

export interface ActiveLimits {
  /** The client's `max_concurrent_tasks`. */
  perClient: number;
  /** `tasks.max_active`. */
  total: number;
}

/**
 * Where tasks live: SQLite on the embedded default (they outlive a restart),
 * Redis in scale-out mode (any replica answers for any task). Every change
 * is one atomic read-modify-write, whichever process makes it.
 */
export abstract class TaskStore {
  /** Stores a new task unless the active limits are reached, in one atomic step. */
  abstract create(task: TaskRecord, limits: ActiveLimits): Promise<CreateOutcome>;

  /** The task, or undefined when it never existed or its TTL has passed. */
  abstract get(taskId: string): Promise<TaskRecord | undefined>;

  /**
   * Applies `change` to the current record atomically and returns the
   * result; `change` returns undefined to leave the record as it is.
   * Undefined when there is no such task.
   */
  abstract update(
    taskId: string,
    change: (task: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined>;

  /** Newest first, for the admin API. */
  abstract list(filter: TaskFilter): Promise<TaskRecord[]>;

  /** Tasks not yet terminal, oldest first (the embedded queue resumes them after a restart). */
  abstract unfinished(): Promise<TaskRecord[]>;

  /** Removes tasks whose TTL has passed; returns how many. */
  abstract sweep(now: number): Promise<number>;

  /** `sqlite` or `redis`, for health details. */
  abstract readonly kind: string;

  /** A cheap round trip for health checks; rejects while tasks cannot be read or written. */
  abstract ping(): Promise<void>;
}
