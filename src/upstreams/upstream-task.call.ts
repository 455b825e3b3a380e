import type { Logger } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { isTerminal } from '@modelcontextprotocol/sdk/experimental/tasks';
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode as McpErrorCode,
  McpError,
  type Progress,
  RELATED_TASK_META_KEY,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { errorChain } from './error-chain';
import { releaseTaskProgress } from './sdk-task-progress.release';
import { UpstreamTaskDeadline } from './upstream-task.deadline';
import { UPSTREAM_TASK_LIMITS } from './upstream-task.limits';
import { UpstreamTaskProgress } from './upstream-task.progress';

/** The limits of a plain call, applied to the whole task. */
export interface UpstreamTaskBudget {
  /** `tool_timeout_ms`: the longest the task may go without progress or a status change. */
  idleMs: number;
  /** The longest the task may take in all. */
  totalMs: number;
}

export interface UpstreamTaskCallOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
  /** Rewrites an upstream's error before it is logged (the record's secrets read as ***). */
  scrub?: (error: unknown) => unknown;
}

/** Runs one request on the connection's session (re-initialized once if the upstream forgot it). */
export type SessionRequest = <T>(request: (client: Client) => Promise<T>) => Promise<T>;

type TaskState = Pick<Task, 'taskId' | 'status' | 'statusMessage' | 'pollInterval'>;

/**
 * One task-augmented tools/call to an upstream (MCP 2025-11-25 tasks): the
 * upstream answers with a task, which the gateway follows with tasks/get,
 * relaying its status and progress, and whose outcome tasks/result gives
 * (it also carries the task's questions to the client). When the caller
 * stops or the deadline passes, the upstream is asked to cancel the task.
 */
export class UpstreamTaskCall {
  private deadline?: UpstreamTaskDeadline;
  private readonly progress: UpstreamTaskProgress;

  constructor(
    private readonly serverId: string,
    private readonly params: { name: string; arguments?: Record<string, unknown> },
    private readonly budget: UpstreamTaskBudget,
    private readonly options: UpstreamTaskCallOptions,
    private readonly logger: Logger,
  ) {
    this.progress = new UpstreamTaskProgress(options.onprogress, () => this.deadline?.touch());
  }

  async run(session: SessionRequest): Promise<CallToolResult> {
    let created: { client: Client; task: TaskState } | undefined;
    try {
      // Only the creation is retried on a new session: a task the upstream accepted is never started twice.
      created = await session(async (client) => ({ client, task: await this.create(client) }));
      return await this.outcome(created.client, created.task);
    } catch (error) {
      const stopped = this.deadline?.signal;
      if (!stopped?.aborted) throw error;
      if (created) await this.cancel(created.client, created.task.taskId);
      throw stopped.reason;
    } finally {
      this.deadline?.dispose();
      this.progress.detach();
      if (created) releaseTaskProgress(created.client, created.task.taskId);
    }
  }

  /** The tools/call with `task`; the upstream answers at once with the task it created. */
  private async create(client: Client): Promise<TaskState> {
    // Started here rather than before the connection opens, like a plain call's request timeout.
    this.deadline ??= new UpstreamTaskDeadline(
      this.budget.idleMs,
      this.budget.totalMs,
      this.options.signal,
    );
    const { task } = await client.request(
      { method: 'tools/call', params: this.params },
      CreateTaskResultSchema,
      {
        task: { ttl: this.budget.totalMs + UPSTREAM_TASK_LIMITS.ttlGraceMs },
        timeout: this.budget.idleMs,
        signal: this.deadline.signal,
        onprogress: this.progress.onprogress,
      },
    );
    return task;
  }

  /** Polls until the task ends; tasks/result starts once it ends or asks for input, and gives the outcome. */
  private async outcome(client: Client, created: TaskState): Promise<CallToolResult> {
    const { taskId } = created;
    const signal = this.deadline!.signal;
    let task = created;
    let result: Promise<CallToolResult> | undefined;
    for (;;) {
      this.progress.status(task);
      if (task.status === 'cancelled') {
        throw new McpError(
          McpErrorCode.InternalError,
          `Upstream task ${taskId} was cancelled by the upstream${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
        );
      }
      if (result === undefined && (isTerminal(task.status) || task.status === 'input_required')) {
        // Blocks until the task ends; meanwhile it delivers the task's questions (elicitation, sampling).
        result = client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, {
          timeout: this.budget.totalMs,
          signal,
        });
        // Awaited below; this only keeps a failure during the next pause from being unhandled.
        result.catch(() => undefined);
      }
      if (isTerminal(task.status) || (await this.pause(pollWait(task), result))) {
        return withoutRelatedTask(await result!);
      }
      task = await this.poll(client, taskId);
    }
  }

  private async poll(client: Client, taskId: string): Promise<TaskState> {
    try {
      return await client.experimental.tasks.getTask(taskId, {
        timeout: this.budget.idleMs,
        signal: this.deadline!.signal,
      });
    } catch (error) {
      // -32602 from tasks/get means the task is gone (expired, purged), not that the arguments were wrong.
      if (!(error instanceof McpError) || error.code !== (McpErrorCode.InvalidParams as number)) {
        throw error;
      }
      throw new McpError(McpErrorCode.InternalError, `Upstream lost task ${taskId}`, {
        cause: error.message,
      });
    }
  }

  /** Waits `ms`; true as soon as `result` settles, rejects when the deadline fires. */
  private pause(ms: number, result: Promise<unknown> | undefined): Promise<boolean> {
    const signal = this.deadline!.signal;
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => finish(() => resolve(false)), ms);
      const onAbort = () => finish(() => reject(signal.reason as Error));
      const finish = (then: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        then();
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      const settled = () => finish(() => resolve(true));
      result?.then(settled, settled);
    });
  }

  /** Asks the upstream to stop the task, bounded; the caller's outcome is already decided. */
  private async cancel(client: Client, taskId: string): Promise<void> {
    const log = { server_id: this.serverId, tool: this.params.name, task_id: taskId };
    if (client.getServerCapabilities()?.tasks?.cancel === undefined) {
      this.logger.warn({ msg: 'upstream task left running: no tasks.cancel capability', ...log });
      return;
    }
    try {
      await client.experimental.tasks.cancelTask(taskId, {
        timeout: UPSTREAM_TASK_LIMITS.cancelTimeoutMs,
      });
      this.logger.debug({ msg: 'upstream task cancelled', ...log });
    } catch (error) {
      const clean = this.options.scrub ? this.options.scrub(error) : error;
      this.logger.warn({ msg: 'upstream task not cancelled', ...log, error: errorChain(clean) });
    }
  }
}

/** The result's related-task key names the upstream's task, which means nothing to the caller. */
function withoutRelatedTask(result: CallToolResult): CallToolResult {
  if (result._meta?.[RELATED_TASK_META_KEY] === undefined) return result;
  const meta: Record<string, unknown> = { ...result._meta };
  delete meta[RELATED_TASK_META_KEY];
  const rest = { ...result };
  delete rest._meta;
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
}

/** The upstream's pollInterval, kept within bounds. */
function pollWait(task: TaskState): number {
  const { defaultPollMs, minPollMs, maxPollMs } = UPSTREAM_TASK_LIMITS;
  const asked = task.pollInterval ?? defaultPollMs;
  return Math.min(Math.max(Number.isFinite(asked) ? asked : maxPollMs, minPollMs), maxPollMs);
}
