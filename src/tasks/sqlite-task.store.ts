import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SqliteDatabase } from '../ledger/sqlite-driver';
import { SQLITE_MEMORY } from '../config/config-paths';
import { TaskFilter, TaskRecord } from './task-record';
import { ActiveLimits, CreateOutcome, TaskStore } from './task.store';
import { isTerminal } from './tasks.constants';

const ACTIVE = `status IN ('working', 'input_required')`;

/**
 * Tasks in a SQLite file of their own (`tasks.sqlite_path`), so they outlive
 * a restart of the one process the embedded default runs. better-sqlite3 is
 * synchronous: each change is a transaction no other change can interleave with.
 */
export class SqliteTaskStore extends TaskStore {
  readonly kind = 'sqlite';
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    super();
    if (file !== SQLITE_MEMORY) mkdirSync(path.dirname(file), { recursive: true });
    this.db = new SqliteDatabase(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS tasks (
        task_id TEXT PRIMARY KEY,
        client_id TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        record TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS tasks_client_status ON tasks (client_id, status);
      CREATE INDEX IF NOT EXISTS tasks_status ON tasks (status);
      CREATE INDEX IF NOT EXISTS tasks_expires ON tasks (expires_at);
    `);
  }

  create(task: TaskRecord, limits: ActiveLimits): Promise<CreateOutcome> {
    const insert = this.db.transaction((): CreateOutcome => {
      const total = this.count(`SELECT COUNT(*) AS n FROM tasks WHERE ${ACTIVE}`);
      if (total >= limits.total) return 'gateway_limit';
      const mine = this.count(
        `SELECT COUNT(*) AS n FROM tasks WHERE client_id = ? AND ${ACTIVE}`,
        task.clientId,
      );
      if (mine >= limits.perClient) return 'client_limit';
      this.db
        .prepare(
          'INSERT INTO tasks (task_id, client_id, status, created_at, expires_at, record) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(
          task.taskId,
          task.clientId,
          task.status,
          task.createdAt,
          task.createdAt + task.ttlMs,
          JSON.stringify(task),
        );
      return 'created';
    });
    return Promise.resolve(insert.immediate());
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.read(taskId, Date.now()));
  }

  update(
    taskId: string,
    change: (task: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    const apply = this.db.transaction((): TaskRecord | undefined => {
      const current = this.read(taskId, Date.now());
      if (current === undefined) return undefined;
      const next = change(current);
      if (next === undefined) return current;
      this.db
        .prepare('UPDATE tasks SET status = ?, record = ? WHERE task_id = ?')
        .run(next.status, JSON.stringify(next), taskId);
      return next;
    });
    return Promise.resolve(apply.immediate());
  }

  list(filter: TaskFilter): Promise<TaskRecord[]> {
    const where: string[] = ['expires_at > ?'];
    const args: unknown[] = [Date.now()];
    if (filter.clientId !== undefined) {
      where.push('client_id = ?');
      args.push(filter.clientId);
    }
    if (filter.status !== undefined) {
      where.push('status = ?');
      args.push(filter.status);
    }
    const rows = this.db
      .prepare(
        `SELECT record FROM tasks WHERE ${where.join(' AND ')} ORDER BY created_at DESC, rowid DESC LIMIT ?`,
      )
      .all(...args, filter.limit) as Array<{ record: string }>;
    return Promise.resolve(rows.map((row) => JSON.parse(row.record) as TaskRecord));
  }

  unfinished(): Promise<TaskRecord[]> {
    const rows = this.db
      .prepare(`SELECT record FROM tasks WHERE ${ACTIVE} ORDER BY created_at`)
      .all() as Array<{ record: string }>;
    return Promise.resolve(rows.map((row) => JSON.parse(row.record) as TaskRecord));
  }

  sweep(now: number): Promise<number> {
    // A task still running past its TTL is left to finish: its runner fails it (TaskRunner).
    const { changes } = this.db
      .prepare(`DELETE FROM tasks WHERE expires_at <= ? AND NOT ${ACTIVE}`)
      .run(now);
    return Promise.resolve(changes);
  }

  /** Reads the table, so a closed database or one whose file cannot be read fails. */
  ping(): Promise<void> {
    this.db.prepare('SELECT 1 FROM tasks LIMIT 1').get();
    return Promise.resolve();
  }

  close(): void {
    this.db.close();
  }

  private read(taskId: string, now: number): TaskRecord | undefined {
    const row = this.db
      .prepare('SELECT record, expires_at FROM tasks WHERE task_id = ?')
      .get(taskId) as { record: string; expires_at: number } | undefined;
    if (row === undefined) return undefined;
    const task = JSON.parse(row.record) as TaskRecord;
    // Expired and finished: gone, as if swept (an unfinished one is its runner's to end).
    if (row.expires_at <= now && isTerminal(task.status)) return undefined;
    return task;
  }

  private count(sql: string, ...args: unknown[]): number {
    return (this.db.prepare(sql).get(...args) as { n: number }).n;
  }
}

/** `tasks.sqlite_path`, or `tasks.db` beside the ledger's SQLite file when it is empty. */
export function tasksDatabasePath(tasksPath: string, ledgerPath: string): string {
  if (tasksPath !== '') return tasksPath;
  if (ledgerPath === SQLITE_MEMORY) return SQLITE_MEMORY;
  return path.join(path.dirname(ledgerPath), 'tasks.db');
}
