import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { configLimitExceeded } from '../errors/limit-exceeded';
import { QuotaPolicy } from '../governance/quota/quota.policy';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { RegisteredTool } from '../tools/registered-tool';
import { acceptsTasks, taskPrincipal, tasksCapabilityMissing } from './task-access';
import { TaskOrigin, TaskRecord } from './task-record';
import { createTaskResult } from './task-wire';
import { TaskStore } from './task.store';
import { TaskQueue } from './task.queue';
import { TasksMetrics } from './tasks.metrics';

/** How a tools/call is served: now, or as a task. */
export type CallMode = 'sync' | 'task';

/**
 * Decides which tools/call becomes a task, and creates it: durably stored
 * and queued before the CreateTaskResult goes out (ext-tasks, "Task
 * Creation"). A tool that declares `task` runs as a task for every client
 * that accepts tasks, and so does one expected to run longer than
 * `tools.async_threshold_seconds`; a client that does not accept them gets
 * the synchronous call, unless the tool runs only as a task (-32021).
 */
@Injectable()
export class TaskLauncher {
  private readonly logger = new Logger(TaskLauncher.name);

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly store: TaskStore,
    private readonly queue: TaskQueue,
    private readonly quotas: QuotaPolicy,
    private readonly metrics: TasksMetrics,
  ) {}

  decide(tool: RegisteredTool, ctx: McpRequestContext): CallMode {
    // A notification has no one to tell the task id to.
    if (ctx.requestId === undefined) return 'sync';
    const { task, maxDurationSeconds } = tool.options;
    const long = (maxDurationSeconds ?? 0) > this.config.tools.async_threshold_seconds;
    if (task === undefined && !long) return 'sync';
    if (acceptsTasks(ctx)) return 'task';
    if (task === 'required')
      throw tasksCapabilityMissing(`Tool ${tool.name} runs only as a task: it`);
    return 'sync';
  }

  /** Stores and queues the task; the answer to the tools/call that asked for it. */
  async create(
    tool: RegisteredTool,
    ctx: McpRequestContext,
    params: JsonRpcParams,
    answers: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const now = Date.now();
    // The call as the task will run it: its name and arguments, not the envelope of this request.
    const kept: JsonRpcParams = { name: params.name, arguments: params.arguments ?? {} };
    const task: TaskRecord = {
      taskId: randomBytes(18).toString('base64url'),
      principal: taskPrincipal(ctx),
      clientId: ctx.clientId,
      tool: tool.name,
      params: kept,
      status: 'working',
      statusMessage: 'queued',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.config.tasks.ttl_seconds * 1000,
      pollIntervalMs: this.config.tasks.poll_interval_ms,
      inputRequests: {},
      answers,
      askedKeys: Object.keys(answers),
      cancelRequested: false,
      attempts: 0,
      origin: originOf(ctx),
    };
    const perClient = this.quotas.quotaFor(ctx.clientId).max_concurrent_tasks;
    const total = this.config.tasks.max_active;
    const outcome = await this.store.create(task, { perClient, total });
    if (outcome === 'client_limit') {
      throw configLimitExceeded(
        ErrorCode.GovernanceDenied,
        'max_concurrent_tasks',
        perClient,
        `Another task for client ${ctx.clientId}`,
        { retryable: true },
      );
    }
    if (outcome === 'gateway_limit') {
      throw configLimitExceeded(
        ErrorCode.ExecutionError,
        'tasks.max_active',
        total,
        'Another task',
        {
          retryable: true,
        },
      );
    }
    try {
      await this.queue.enqueue(task);
    } catch (err) {
      await this.abandon(task, err);
      throw new GatewayError(
        ErrorCode.InternalError,
        'The task queue is unavailable; the call was not started',
        {
          retryable: true,
        },
      );
    }
    // From here the task's own ending writes the call's ledger row and settles its budget claim.
    ctx.call.taskId = task.taskId;
    this.metrics.created(tool.name);
    this.logger.log({
      msg: 'task created',
      taskId: task.taskId,
      tool: tool.name,
      client: ctx.clientId,
      traceId: ctx.traceId,
    });
    return createTaskResult(task);
  }

  /** A task that could not be queued ends at once; the refused call is ledgered as a call. */
  private async abandon(task: TaskRecord, err: unknown): Promise<void> {
    this.logger.error({ msg: 'task not queued', taskId: task.taskId, error: String(err) });
    await this.store
      .update(task.taskId, (current) => ({
        ...current,
        status: 'failed',
        error: { code: ErrorCode.InternalError, message: 'The task queue is unavailable' },
        finishedAt: Date.now(),
        lastUpdatedAt: Date.now(),
      }))
      .catch(() => undefined);
  }
}

/** What the run and the ledger need of the request, kept with the task. */
function originOf(ctx: McpRequestContext): TaskOrigin {
  const { session, call, token } = ctx;
  return {
    requestId: ctx.requestId!,
    traceId: ctx.traceId,
    sessionId: session.id,
    sessionOwner: session.owner,
    transport: session.transport,
    protocolVersion: session.protocolVersion ?? '',
    clientCapabilities: session.clientCapabilities,
    token:
      token === undefined
        ? undefined
        : {
            issuer: token.issuer,
            subject: token.subject,
            clientId: token.clientId,
            tokenId: token.tokenId,
            scopes: [...token.scopes],
            expiresAt: token.expiresAt,
          },
    estimatedCost: call.estimatedCost,
    costCap: call.costCap,
    budgetClaim: call.budgetClaim,
    upstream: call.upstream,
    argumentsOverLimit: call.argumentsOverLimit,
  };
}
