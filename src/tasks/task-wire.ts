import { TaskRecord } from './task-record';

/** The Task fields every shape shares (ext-tasks, "Tasks"). */
function taskFields(task: TaskRecord): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) fields.statusMessage = task.statusMessage;
  return fields;
}

/** The answer to the tools/call that created the task: `resultType: "task"`, no payload fields. */
export function createTaskResult(task: TaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(task) };
}

/**
 * The DetailedTask of tasks/get and notifications/tasks: the status's own
 * payload inlined (outstanding inputRequests, the result, or the error).
 */
export function detailedTask(task: TaskRecord): Record<string, unknown> {
  const fields = taskFields(task);
  switch (task.status) {
    case 'input_required':
      fields.inputRequests = task.inputRequests;
      break;
    case 'completed':
      fields.result = task.result ?? {};
      break;
    case 'failed':
      fields.error = task.error ?? { code: -32603, message: 'Task failed' };
      break;
    default:
      break;
  }
  return fields;
}
