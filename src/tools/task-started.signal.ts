/**
 * Thrown through a handler that called `ctx.runAsTask()` on a request that
 * may become a task: the task now exists (its run starts the handler again,
 * with the answers gathered so far), and `created` is the tools/call answer.
 */
export class TaskStarted extends Error {
  constructor(readonly created: Record<string, unknown>) {
    super('the call continues as a task');
    this.name = 'TaskStarted';
  }
}
