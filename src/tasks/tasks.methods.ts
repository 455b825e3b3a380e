import { Inject, Injectable } from '@nestjs/common';
import { boundedJsonSize } from '../common/bounded-json-size';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { limitExceeded } from '../errors/limit-exceeded';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { validInputResponse } from '../json-rpc/mrtr/input-response.check';
import { isModernVersion } from '../json-rpc/protocol-version';
import {
  acceptsTasks,
  TASK_ID_MAX_CHARS,
  taskPrincipal,
  tasksCapabilityMissing,
} from './task-access';
import { TaskCancellation } from './task-cancellation';
import { TaskEvents } from './task-events';
import { TaskRecord } from './task-record';
import { detailedTask } from './task-wire';
import { TaskStore } from './task.store';
import { isTerminal } from './tasks.constants';

/**
 * tasks/get, tasks/update and tasks/cancel (ext-tasks). Only a 2026-07-28
 * request that declares the extension may use them (-32021 otherwise), and
 * only for tasks of its own principal: anyone else's task id is answered
 * exactly like one that never existed (-32602), so ids leak nothing.
 */
@Injectable()
export class TasksMethods {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly store: TaskStore,
    private readonly events: TaskEvents,
    private readonly cancellation: TaskCancellation,
  ) {}

  @McpMethod('tasks/get')
  async get(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    return detailedTask(await this.find(params, ctx));
  }

  /**
   * Answers to outstanding questions; keys not outstanding are ignored (ext-tasks,
   * "Task Update Requests"), and the task goes back to working once none is left.
   */
  @McpMethod('tasks/update')
  async update(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const found = await this.find(params, ctx);
    const responses = this.readResponses(params.inputResponses);
    this.checkAnswers(found, responses);
    const updated = await this.store.update(found.taskId, (current) => {
      const answered = Object.keys(responses).filter(
        (key) => current.inputRequests[key] !== undefined,
      );
      if (answered.length === 0 || isTerminal(current.status)) return undefined;
      const inputRequests = { ...current.inputRequests };
      const answers = { ...current.answers };
      for (const key of answered) {
        answers[key] = responses[key];
        delete inputRequests[key];
      }
      const waiting = Object.keys(inputRequests).length > 0;
      return {
        ...current,
        answers,
        inputRequests,
        status: waiting ? 'input_required' : 'working',
        lastUpdatedAt: Date.now(),
      };
    });
    if (updated !== undefined && updated !== found) {
      this.events.publish({ taskId: found.taskId, kind: 'answered' });
      this.events.publish({ taskId: found.taskId, kind: 'changed' });
    }
    return {};
  }

  /** Cooperative: the run is stopped where it is, and the task ends cancelled unless it ended first. */
  @McpMethod('tasks/cancel')
  async cancel(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const found = await this.find(params, ctx);
    await this.cancellation.request(found.taskId);
    return {};
  }

  private async find(params: JsonRpcParams, ctx: McpRequestContext): Promise<TaskRecord> {
    // Sessions of the earlier revisions never get tasks; for them these methods do not exist.
    if (!isModernVersion(ctx.session.protocolVersion))
      throw GatewayError.methodNotFound(ctx.method);
    if (!acceptsTasks(ctx)) throw tasksCapabilityMissing(ctx.method);
    const { taskId } = params;
    if (typeof taskId !== 'string' || taskId.length === 0) {
      throw GatewayError.invalidParams(`${ctx.method} needs params.taskId (a string)`, {
        field: 'taskId',
      });
    }
    const task = taskId.length > TASK_ID_MAX_CHARS ? undefined : await this.store.get(taskId);
    if (task === undefined || task.principal !== taskPrincipal(ctx)) {
      throw GatewayError.invalidParams('Failed to retrieve task: Task not found', {
        field: 'taskId',
      });
    }
    return task;
  }

  private readResponses(value: unknown): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw GatewayError.invalidParams('tasks/update needs params.inputResponses (an object)', {
        field: 'inputResponses',
      });
    }
    const max = this.config.limits.input_responses_bytes;
    if (boundedJsonSize(value, max) > max) {
      throw limitExceeded(ErrorCode.InvalidParams, 'input_responses_bytes', max, 'inputResponses');
    }
    return value as Record<string, unknown>;
  }

  /** An answer to an outstanding question must have the shape of that question's result. */
  private checkAnswers(task: TaskRecord, responses: Record<string, unknown>): void {
    for (const [key, response] of Object.entries(responses)) {
      const asked = task.inputRequests[key];
      if (asked === undefined || validInputResponse(asked.method, response)) continue;
      throw GatewayError.invalidParams(
        `Invalid params: inputResponses["${key}"] is not a result of ${asked.method}`,
        { field: `inputResponses.${key}` },
      );
    }
  }
}
