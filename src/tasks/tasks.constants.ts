/** The extension's identifier (ext-tasks, "Extension Identifier"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export const TASK_STATUSES = [
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set([
  'completed',
  'failed',
  'cancelled',
]);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** How often a running task re-reads its record for answers and cancellation a missed event may hide. */
export const TASK_RECHECK_MS = 1_000;
