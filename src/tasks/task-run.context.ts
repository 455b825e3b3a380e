import { RequestAbort } from '../common/request-abort';
import { JsonRpcId, JsonRpcParams } from '../json-rpc/json-rpc.types';
import { CallRecord, McpRequestContext } from '../json-rpc/mcp-request-context';
import { McpSession } from '../session/mcp-session';
import { TaskRecord } from './task-record';

/** What a task's run does with the messages a request would send its client. */
export interface TaskRunChannel {
  /** A question for the client: the task waits in input_required until tasks/update answers it. */
  ask(
    method: string,
    params: JsonRpcParams,
    timeoutMs: number,
    inputKey?: string,
  ): Promise<unknown>;
  /** Progress becomes the task's statusMessage (notifications/progress is not sent for tasks). */
  progress(message: string): void;
}

/** The progress token the executor's reporter sends with; only this context reads it. */
const TASK_PROGRESS = 'task';

/**
 * The McpRequestContext a task runs in: the tools/call that created it, as
 * the task remembers it, so the executor, the handler and the ledger see the
 * same call they would have seen synchronously. What the request would have
 * sent its client goes through the task instead: questions become
 * inputRequests, progress the statusMessage, and log messages nowhere
 * (ext-tasks: no notifications/message for tasks).
 */
export class TaskRunContext implements McpRequestContext {
  readonly method = 'tools/call';
  readonly requestId?: JsonRpcId;
  readonly session: McpSession;
  readonly clientId: string;
  readonly transport: McpSession['transport'];
  readonly token?: McpRequestContext['token'];
  readonly abort = new RequestAbort();
  readonly meta: Record<string, unknown> = { progressToken: TASK_PROGRESS };
  readonly call: CallRecord;
  readonly traceId: string;

  constructor(
    task: TaskRecord,
    private readonly channel: TaskRunChannel,
  ) {
    const { origin } = task;
    this.requestId = origin.requestId ?? undefined;
    this.clientId = task.clientId;
    this.transport = origin.transport;
    this.traceId = origin.traceId;
    this.session = new McpSession(
      origin.transport,
      task.clientId,
      origin.sessionOwner,
      undefined,
      origin.sessionId,
    );
    this.session.protocolVersion = origin.protocolVersion;
    this.session.clientCapabilities = origin.clientCapabilities;
    this.session.initialized = true;
    if (origin.token !== undefined) {
      this.token = { ...origin.token, scopes: new Set(origin.token.scopes) };
    }
    this.call = {
      target: task.tool,
      visible: true,
      estimatedCost: origin.estimatedCost,
      costCap: origin.costCap,
      budgetClaim: origin.budgetClaim,
      upstream: origin.upstream,
      argumentsOverLimit: origin.argumentsOverLimit,
    };
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  notify(method: string, params?: JsonRpcParams): boolean {
    if (method !== 'notifications/progress' || params === undefined) return false;
    const { progress, total, message } = params as {
      progress?: number;
      total?: number;
      message?: string;
    };
    // Heartbeats nudge the value by a millionth to keep it increasing; a status shows whole steps.
    const done = Math.floor(progress ?? 0);
    const figures = total === undefined ? `${done}` : `${done}/${total}`;
    this.channel.progress(message === undefined ? figures : `${message} (${figures})`);
    return true;
  }

  request(
    method: string,
    params?: JsonRpcParams,
    timeoutMs = 300_000,
    inputKey?: string,
  ): Promise<unknown> {
    return this.channel.ask(method, params ?? {}, timeoutMs, inputKey);
  }

  log(): boolean {
    return false;
  }

  closeStream(): boolean {
    return false;
  }
}
