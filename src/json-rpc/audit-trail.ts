import { Injectable } from '@nestjs/common';
import { JsonRpcParams, JsonRpcResponse } from './json-rpc.types';
import { McpRequestContext } from './mcp-request-context';

/** Everything known about an audited call once its response exists, before it is sent. */
export interface CompletedCall {
  context: McpRequestContext;
  params: JsonRpcParams;
  /** Epoch milliseconds when dispatch of the request began. */
  startedAt: number;
  durationMs: number;
  /** Size of the serialized response (0 when there is none). */
  responseBytes?: number;
  /** Undefined when the client cancelled the request (it gets no response). */
  response?: JsonRpcResponse;
  cancelled: boolean;
}

export interface CallObserver {
  /** Awaited before the response leaves; a rejection turns the response into an error. */
  callCompleted(call: CompletedCall): Promise<void> | void;
}

/**
 * Hooks that see the final outcome of every audited call (tools/call,
 * resources/read) - allowed, denied by a guard, or failed. Guards stop the
 * pipeline before any interceptor runs, so the ledger listens here to record
 * denials too.
 */
@Injectable()
export class CallObservers {
  private readonly observers: CallObserver[] = [];

  register(observer: CallObserver): void {
    this.observers.push(observer);
  }

  get size(): number {
    return this.observers.length;
  }

  /**
   * Tells every observer, in order, each after the previous one settled.
   * Undefined when all of them finished synchronously (a call that costs
   * nothing leaves the spend alone): the dispatcher then sends the response
   * without waiting a turn of the microtask queue per observer.
   */
  notify(call: CompletedCall): Promise<void> | undefined {
    return this.notifyFrom(call, 0);
  }

  private notifyFrom(call: CompletedCall, index: number): Promise<void> | undefined {
    for (let i = index; i < this.observers.length; i++) {
      const pending = this.observers[i].callCompleted(call);
      if (pending) return pending.then(() => this.notifyFrom(call, i + 1));
    }
    return undefined;
  }
}
