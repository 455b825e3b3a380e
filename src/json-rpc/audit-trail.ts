import { Injectable } from '@nestjs/common';
import { CallObserver, CompletedCall } from './call-observers';

/**
 * The audit trail: the dispatcher hands it the final outcome of every
 * audited call (allowed, denied by a guard, failed or cancelled) before the
 * response leaves, and its observers (the ledger row, the budget settle) act
 * on it. It is not an interceptor because a guard's denial never reaches the
 * interceptors, yet must be recorded.
 */
@Injectable()
export class AuditTrail {
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
