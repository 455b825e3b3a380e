import { IsInt, IsString, Max, Min } from 'class-validator';
import { ConfigPath, Default } from './config-schema.decorators';

/**
 * Long-running tool calls as MCP tasks (the io.modelcontextprotocol/tasks extension): where
 * they are kept, how many run, how long their results live (docs/tasks.md).
 */
export class TasksSchema {
  /** Seconds a task and its result are kept after creation (its `ttlMs`); then it is removed. */
  @Default(3600)
  @Min(60)
  @Max(7 * 86_400)
  @IsInt()
  ttl_seconds!: number;

  /** The polling interval suggested to clients (`pollIntervalMs`). */
  @Default(1000)
  @Min(100)
  @Max(60_000)
  @IsInt()
  poll_interval_ms!: number;

  /** Tasks this replica runs at once; more wait in the queue (status working, "queued"). */
  @Default(4)
  @Min(1)
  @Max(256)
  @IsInt()
  workers!: number;

  /** Tasks queued or running in the whole gateway at once (all clients); one more is refused. */
  @Default(1000)
  @Min(1)
  @IsInt()
  max_active!: number;

  /** Largest stored result or error of a task (serialized JSON); a larger one fails the task. */
  @Default(1_048_576)
  @Min(1024)
  @Max(16_777_216)
  @IsInt()
  max_result_bytes!: number;

  /**
   * Runs of one task: a run interrupted by the death of its process (a restart, a lost replica)
   * is started again until this many have begun; then the task fails with `task_interrupted`.
   */
  @Default(2)
  @Min(1)
  @Max(5)
  @IsInt()
  max_attempts!: number;

  /**
   * With the redis state driver: seconds a replica's hold on a running task lasts without
   * renewal; a replica silent this long is taken for dead and another one runs the task again.
   */
  @Default(30)
  @Min(1)
  @Max(600)
  @IsInt()
  lock_seconds!: number;

  /**
   * With the memory state driver: the SQLite file tasks are kept in across restarts. Empty:
   * `tasks.db` beside the ledger's SQLite file (in memory when the ledger is), so one data
   * directory holds the gateway's state.
   */
  @ConfigPath('state')
  @Default('')
  @IsString()
  sqlite_path!: string;
}
