import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The SDK's own cleanup of a task's progress handler, private in its typings. */
interface TaskProgressCleanup {
  _cleanupTaskProgressHandler?: (taskId: string) => void;
}

/**
 * Frees the progress handler the SDK keeps after a task-augmented request:
 * it frees it itself only on the receiving side, so on a long-lived
 * connection the gateway's would otherwise pile up, one per upstream task.
 */
export function releaseTaskProgress(client: Client, taskId: string): void {
  const cleanup = (client as unknown as TaskProgressCleanup)._cleanupTaskProgressHandler;
  if (typeof cleanup === 'function') cleanup.call(client, taskId);
}
