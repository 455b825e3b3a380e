import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { limitExceeded } from '../errors/limit-exceeded';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { QuestionKeys } from '../json-rpc/mrtr/input-round';
import { TaskRecord } from './task-record';
import { TaskEvents } from './task-events';
import { TaskStore } from './task.store';

export interface QuestionLimits {
  /** `limits.input_requests_per_round`: questions outstanding at once. */
  atOnce: number;
  /** `limits.input_rounds` x `limits.input_requests_per_round`: questions over the task's life. */
  total: number;
}

interface Waiter {
  resolve(answer: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The questions one run of a task asks its client (elicitation, sampling,
 * roots): each is stored among the task's inputRequests (status
 * input_required) and answered by tasks/update, on whichever replica; the
 * run waits until the answer is in the store. An answer the task already
 * holds (an MRTR round before the task, an earlier run) is used at once.
 */
export class TaskQuestions {
  private readonly keys = new QuestionKeys();
  private readonly waiters = new Map<string, Waiter>();

  constructor(
    private readonly taskId: string,
    private readonly store: TaskStore,
    private readonly events: TaskEvents,
    private readonly limits: QuestionLimits,
  ) {}

  async ask(
    method: string,
    params: JsonRpcParams,
    timeoutMs: number,
    inputKey?: string,
  ): Promise<unknown> {
    const key = inputKey ?? this.keys.next(method, params);
    let known: { answer: unknown } | undefined;
    let refusal: GatewayError | undefined;
    const task = await this.store.update(this.taskId, (current) => {
      if (Object.hasOwn(current.answers, key)) {
        known = { answer: current.answers[key] };
        return undefined;
      }
      if (current.inputRequests[key] === undefined) refusal = this.overLimit(current);
      if (refusal !== undefined) return undefined;
      return {
        ...current,
        status: 'input_required',
        statusMessage: undefined,
        inputRequests: { ...current.inputRequests, [key]: { method, params } },
        askedKeys: current.askedKeys.includes(key)
          ? current.askedKeys
          : [...current.askedKeys, key],
        lastUpdatedAt: Date.now(),
      };
    });
    if (task === undefined) throw new GatewayError(ErrorCode.InternalError, 'The task is gone');
    if (refusal !== undefined) throw refusal;
    if (known !== undefined) return known.answer;
    this.events.publish({ taskId: this.taskId, kind: 'changed' });
    return this.wait(key, method, timeoutMs);
  }

  /** Hands stored answers to the questions waiting for them (on news of the task, and every second). */
  deliver(task: TaskRecord): void {
    for (const [key, waiter] of this.waiters) {
      if (!Object.hasOwn(task.answers, key)) continue;
      this.waiters.delete(key);
      clearTimeout(waiter.timer);
      waiter.resolve(task.answers[key]);
    }
  }

  /** The run ended: nothing waits any more. */
  close(reason: Error): void {
    for (const waiter of this.waiters.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(reason);
    }
    this.waiters.clear();
  }

  get waiting(): boolean {
    return this.waiters.size > 0;
  }

  private wait(key: string, method: string, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(key);
        reject(
          new GatewayError(
            ErrorCode.Timeout,
            `The client did not answer ${method} within ${timeoutMs} ms`,
            { data: { input_key: key, timeout_ms: timeoutMs } },
          ),
        );
      }, timeoutMs);
      timer.unref();
      this.waiters.set(key, { resolve, reject, timer });
    });
  }

  private overLimit(task: TaskRecord): GatewayError | undefined {
    if (Object.keys(task.inputRequests).length >= this.limits.atOnce) {
      return limitExceeded(
        ErrorCode.ExecutionError,
        'input_requests_per_round',
        this.limits.atOnce,
        'Questions of one task waiting for answers at once',
      );
    }
    if (task.askedKeys.length >= this.limits.total) {
      return limitExceeded(
        ErrorCode.ExecutionError,
        'input_rounds',
        this.limits.total,
        'Questions over the life of one task (input_rounds x input_requests_per_round)',
      );
    }
    return undefined;
  }
}
