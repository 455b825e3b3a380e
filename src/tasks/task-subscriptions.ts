import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded } from '../errors/limit-exceeded';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { McpSession } from '../session/mcp-session';
import {
  acceptsTasks,
  TASK_ID_MAX_CHARS,
  taskPrincipal,
  tasksCapabilityMissing,
} from './task-access';
import { TaskEvents } from './task-events';
import { detailedTask } from './task-wire';
import { TaskStore } from './task.store';

/**
 * notifications/tasks for subscriptions/listen streams open on this replica
 * (ext-tasks, "Task Status Notifications"): every change of a watched task,
 * wherever it happened, is read from the store and sent as the full
 * DetailedTask, the same tasks/get would return.
 */
@Injectable()
export class TaskSubscriptions implements OnModuleInit {
  private readonly logger = new Logger(TaskSubscriptions.name);
  private readonly watchers = new Map<string, Set<McpSession>>();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly store: TaskStore,
    private readonly events: TaskEvents,
  ) {}

  onModuleInit(): void {
    this.events.on((event) => {
      if (event.kind === 'changed' && this.watchers.has(event.taskId)) void this.tell(event.taskId);
    });
  }

  /**
   * The task ids of a listen request the gateway will report on: only the
   * caller's own (others are left out of the acknowledgement, as unknown
   * ones are); -32021 when the request does not declare the extension.
   */
  async agree(taskIds: string[], ctx: McpRequestContext): Promise<string[]> {
    if (taskIds.length === 0) return [];
    if (!acceptsTasks(ctx)) throw tasksCapabilityMissing('Listening for notifications/tasks');
    const most = this.config.limits.subscriptions_per_session;
    if (taskIds.length > most) {
      throw limitExceeded(
        ErrorCode.InvalidParams,
        'subscriptions_per_session',
        most,
        `${taskIds.length} taskIds`,
      );
    }
    const principal = taskPrincipal(ctx);
    const agreed: string[] = [];
    for (const taskId of taskIds) {
      if (taskId.length > TASK_ID_MAX_CHARS) continue;
      const task = await this.store.get(taskId);
      if (task?.principal === principal) agreed.push(taskId);
    }
    return agreed;
  }

  /** Sends the tasks' changes to the session until the returned function is called. */
  watch(session: McpSession, taskIds: string[]): () => void {
    for (const taskId of taskIds) {
      let sessions = this.watchers.get(taskId);
      if (sessions === undefined) this.watchers.set(taskId, (sessions = new Set()));
      sessions.add(session);
    }
    return () => {
      for (const taskId of taskIds) {
        const sessions = this.watchers.get(taskId);
        sessions?.delete(session);
        if (sessions?.size === 0) this.watchers.delete(taskId);
      }
    };
  }

  private async tell(taskId: string): Promise<void> {
    try {
      const task = await this.store.get(taskId);
      if (task === undefined) return;
      const params = detailedTask(task);
      for (const session of this.watchers.get(taskId) ?? []) {
        session.notify('notifications/tasks', params);
      }
    } catch (err) {
      this.logger.debug({ msg: 'task notification not sent', taskId, error: String(err) });
    }
  }
}
