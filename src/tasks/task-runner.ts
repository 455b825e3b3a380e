import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { configLimitExceeded } from '../errors/limit-exceeded';
import { RequestCancelledError } from '../errors/request-cancelled.error';
import { AuditTrail } from '../json-rpc/audit-trail';
import { CompletedCall } from '../json-rpc/call-observers';
import { chargedCost } from '../ledger/charged-cost';
import { JsonRpcErrorMapper } from '../json-rpc/json-rpc-error.mapper';
import { failure, success } from '../json-rpc/json-rpc.responses';
import { prepareResponse } from '../json-rpc/json-rpc.serializer';
import { JsonRpcResponse } from '../json-rpc/json-rpc.types';
import { ModernResultShaper } from '../json-rpc/modern-result.shaper';
import { isModernVersion } from '../json-rpc/protocol-version';
import { ToolExecutor } from '../tools/tool.executor';
import { ToolRegistry } from '../tools/tool.registry';
import { TaskEvents } from './task-events';
import { TaskQuestions } from './task-questions';
import { TaskRecord } from './task-record';
import { TaskRunContext } from './task-run.context';
import { inTaskScope } from './task-run.scope';
import { TaskStore } from './task.store';
import { isTerminal, TASK_RECHECK_MS, TaskStatus } from './tasks.constants';
import { TasksMetrics } from './tasks.metrics';

/** Why a run stopped without an outcome of its own: the process is going away. */
export class RunInterrupted extends Error {
  constructor() {
    super('the gateway is shutting down');
    this.name = 'RunInterrupted';
  }
}

/** The end of a task, as the ledger and tasks/get will tell it. */
interface Ending {
  status: Extract<TaskStatus, 'completed' | 'failed' | 'cancelled'>;
  response?: JsonRpcResponse;
  statusMessage?: string;
}

/** The least time an ending may take before another process takes it for abandoned. */
const ENDING_STALE_MIN_MS = 60_000;

/** A run longer than this between progress writes keeps only the latest message. */
const PROGRESS_WRITE_MS = 1_000;

/**
 * Runs one task where the queue hands it out: the tool call that created it,
 * through the same executor (timeout, cancellation, cost) in a context that
 * routes questions to inputRequests and progress to the statusMessage. At the
 * end the ledger row is written (and the budget claim settled) through the
 * audit trail, and only then does the store show the final status.
 */
@Injectable()
export class TaskRunner {
  private readonly logger = new Logger(TaskRunner.name);
  private readonly node = `${hostname()}:${process.pid}`;
  private readonly running = new Map<string, TaskRunContext>();
  private stopping = false;
  /** An ending claimed longer ago than this was abandoned by a process that died (see endingInProgress). */
  private readonly endingStaleMs: number;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly store: TaskStore,
    private readonly events: TaskEvents,
    private readonly registry: ToolRegistry,
    private readonly executor: ToolExecutor,
    private readonly auditTrail: AuditTrail,
    private readonly errors: JsonRpcErrorMapper,
    private readonly modern: ModernResultShaper,
    private readonly metrics: TasksMetrics,
  ) {
    this.endingStaleMs = Math.max(ENDING_STALE_MIN_MS, 3 * config.tasks.lock_seconds * 1000);
    this.events.on((event) => {
      if (event.kind !== 'changed' && this.running.has(event.taskId)) {
        void this.recheck(event.taskId);
      }
    });
  }

  get active(): number {
    return this.running.size;
  }

  /**
   * Runs the task to its end, unless it already ended; rejects with
   * RunInterrupted when this process stops it (the task stays unfinished).
   */
  async run(taskId: string): Promise<void> {
    // A job handed out while this process stops is left, unbegun, to the next process.
    if (this.stopping) throw new RunInterrupted();
    const now = Date.now();
    const task = await this.store.update(taskId, (current) =>
      isTerminal(current.status) || this.endingInProgress(current, now)
        ? undefined
        : {
            ...current,
            attempts: current.attempts + 1,
            startedAt: current.startedAt ?? now,
            runner: this.node,
            statusMessage: undefined,
            lastUpdatedAt: now,
          },
    );
    if (task === undefined || isTerminal(task.status) || this.endingInProgress(task, now)) return;
    if (task.attempts === 1) this.metrics.queueWait(now - task.createdAt);
    await inTaskScope(task, () => this.runOnce(task));
  }

  private async runOnce(task: TaskRecord): Promise<void> {
    if (task.attempts > this.config.tasks.max_attempts) return this.interrupted(task);
    if (task.cancelRequested)
      return this.end(task, new TaskRunContext(task, NO_CHANNEL), CANCELLED);
    await this.execute(task);
  }

  /** A task cancelled before any run began ends now rather than when a worker reaches it. */
  async cancelWaiting(taskId: string): Promise<void> {
    const task = await this.store.get(taskId);
    if (task === undefined || task.attempts > 0 || !task.cancelRequested) return;
    await this.end(task, new TaskRunContext(task, NO_CHANNEL), CANCELLED);
  }

  /** A task whose runs all died with their processes fails, and says so. */
  async interrupted(task: TaskRecord): Promise<void> {
    const error = new GatewayError(
      ErrorCode.InternalError,
      `Task interrupted: its run stopped with the process running it ${task.attempts} time(s) (tasks.max_attempts ${this.config.tasks.max_attempts})`,
      { data: { reason: 'task_interrupted', attempts: task.attempts } },
    );
    const context = new TaskRunContext(task, NO_CHANNEL);
    // It did run (and may have done its work): charged like a call that ran.
    context.call.executed = true;
    await this.end(task, context, this.failed(task, error));
  }

  /** Stops every run of this process, and any it would begin later; their tasks stay unfinished. */
  interruptAll(): void {
    this.stopping = true;
    for (const context of this.running.values()) context.abort.abort(new RunInterrupted());
  }

  private async execute(task: TaskRecord): Promise<void> {
    const limits = this.config.limits;
    const questions = new TaskQuestions(task.taskId, this.store, this.events, {
      atOnce: limits.input_requests_per_round,
      total: limits.input_rounds * limits.input_requests_per_round,
    });
    let progressTimer: NodeJS.Timeout | undefined;
    let latestProgress: string | undefined;
    const context = new TaskRunContext(task, {
      ask: (method, params, timeoutMs, inputKey) =>
        questions.ask(method, params, timeoutMs, inputKey),
      progress: (message) => {
        latestProgress = message;
        progressTimer ??= setTimeout(() => {
          progressTimer = undefined;
          void this.writeProgress(task.taskId, latestProgress);
        }, PROGRESS_WRITE_MS);
      },
    });
    this.running.set(task.taskId, context);
    // Begun while interruptAll() ran: stopped like the runs it found.
    if (this.stopping) context.abort.abort(new RunInterrupted());
    this.questionsOf.set(task.taskId, questions);
    const recheck = setInterval(() => void this.recheck(task.taskId), TASK_RECHECK_MS);
    recheck.unref();
    const started = Date.now();
    this.metrics.runStarted();
    let ending: Ending;
    try {
      // RunInterrupted passes through: the queue decides who runs the task next.
      ending = await this.attempt(task, context);
    } finally {
      clearInterval(recheck);
      clearTimeout(progressTimer);
      questions.close(new RunInterrupted());
      this.running.delete(task.taskId);
      this.questionsOf.delete(task.taskId);
      this.metrics.runTime(Date.now() - started);
    }
    await this.end(task, context, ending);
  }

  private readonly questionsOf = new Map<string, TaskQuestions>();

  private async attempt(task: TaskRecord, context: TaskRunContext): Promise<Ending> {
    try {
      const tool = this.registry.get(task.tool);
      if (tool === undefined) {
        throw new GatewayError(ErrorCode.ToolNotFound, `Tool not found: ${task.tool}`, {
          data: { tool: task.tool },
        });
      }
      const args = (task.params.arguments ?? {}) as Record<string, unknown>;
      const validated = await tool.validate(args);
      const result = await this.executor.execute(tool, validated, context);
      return this.completed(task, success(task.origin.requestId, result));
    } catch (err) {
      const reason = context.abort.reason ?? err;
      if (reason instanceof RunInterrupted) throw reason;
      if (reason instanceof RequestCancelledError) return CANCELLED;
      return this.failed(task, reason);
    }
  }

  private completed(task: TaskRecord, response: JsonRpcResponse): Ending {
    const max = this.config.tasks.max_result_bytes;
    const bytes = Buffer.byteLength(JSON.stringify('result' in response ? response.result : {}));
    if (bytes > max) {
      return this.failed(
        task,
        configLimitExceeded(
          ErrorCode.ExecutionError,
          'tasks.max_result_bytes',
          max,
          `A result of ${bytes} bytes`,
        ),
      );
    }
    return { status: 'completed', response };
  }

  private failed(task: TaskRecord, err: unknown): Ending {
    const error = this.errors.toErrorObject(err, { method: 'tools/call' });
    const response = failure(task.origin.requestId, error.code, error.message, error.data);
    return { status: 'failed', response, statusMessage: error.message };
  }

  /**
   * Another process is ending the task, unless it claimed the ending so long ago that it must
   * have died doing it (its final write lost): then the task is run, or ended, again.
   */
  private endingInProgress(task: TaskRecord, now: number): boolean {
    if (task.endedBy === undefined) return false;
    return now - (task.endingSince ?? 0) < this.endingStaleMs;
  }

  /**
   * Ends the task once, whoever tries (a run, a cancellation before any run,
   * BullMQ giving up): the ledger row first (and the budget settle), so a
   * client never sees an ending the ledger lacks, then the final status.
   */
  private async end(task: TaskRecord, context: TaskRunContext, ending: Ending): Promise<void> {
    const claim = `${this.node}:${randomUUID()}`;
    const claimed = await this.store.update(task.taskId, (current) =>
      this.endingInProgress(current, Date.now()) || isTerminal(current.status)
        ? undefined
        : { ...current, endedBy: claim, endingSince: Date.now() },
    );
    if (claimed?.endedBy !== claim) return;
    let final = ending;
    let call = this.completedCall(task, context, final);
    try {
      await this.auditTrail.notify(call);
    } catch (err) {
      // As on a call: no recorded outcome, no result; the task fails with the ledger's error.
      final = this.failed(task, err);
      call = this.completedCall(task, context, final);
    }
    const { response } = call;
    const now = Date.now();
    await this.store.update(task.taskId, (current) => ({
      ...current,
      status: final.status,
      statusMessage: final.statusMessage,
      inputRequests: {},
      result:
        response !== undefined && 'result' in response
          ? (response.result as Record<string, unknown>)
          : undefined,
      error: response !== undefined && 'error' in response ? response.error : undefined,
      cost: chargedCost(call).cost,
      finishedAt: now,
      lastUpdatedAt: now,
    }));
    this.metrics.finished(final.status);
    this.events.publish({ taskId: task.taskId, kind: 'changed' });
  }

  /** The ending as the audit trail takes a call's: the answer tools/call would have given. */
  private completedCall(task: TaskRecord, context: TaskRunContext, ending: Ending): CompletedCall {
    const shaped =
      ending.response !== undefined && isModernVersion(task.origin.protocolVersion)
        ? this.modern.shape('tools/call', ending.response)
        : ending.response;
    const prepared = shaped === undefined ? undefined : prepareResponse(shaped);
    return {
      context,
      params: task.params,
      startedAt: task.createdAt,
      durationMs: Date.now() - task.createdAt,
      response: prepared?.response,
      responseBytes: prepared?.bytes ?? 0,
      responseText: prepared?.text,
      cancelled: ending.status === 'cancelled',
    };
  }

  /** News of a running task: its cancellation, or answers to its questions. */
  private async recheck(taskId: string): Promise<void> {
    const context = this.running.get(taskId);
    if (context === undefined) return;
    let task: TaskRecord | undefined;
    try {
      task = await this.store.get(taskId);
    } catch (err) {
      this.logger.debug({ msg: 'task not re-read', taskId, error: String(err) });
      return;
    }
    if (task === undefined) return;
    if (task.cancelRequested) {
      context.abort.abort(new RequestCancelledError('tasks/cancel'));
      return;
    }
    this.questionsOf.get(taskId)?.deliver(task);
  }

  private async writeProgress(taskId: string, message: string | undefined): Promise<void> {
    if (message === undefined) return;
    try {
      const task = await this.store.update(taskId, (current) =>
        current.status === 'working'
          ? { ...current, statusMessage: message, lastUpdatedAt: Date.now() }
          : undefined,
      );
      if (task?.statusMessage === message) this.events.publish({ taskId, kind: 'changed' });
    } catch (err) {
      this.logger.debug({ msg: 'task progress not stored', taskId, error: String(err) });
    }
  }
}

const CANCELLED: Ending = { status: 'cancelled', statusMessage: 'Cancelled on request' };

/** For a context that never runs a handler (a task cancelled or failed before it ran). */
const NO_CHANNEL = {
  ask: () => Promise.reject(new Error('no run')),
  progress: () => undefined,
};
