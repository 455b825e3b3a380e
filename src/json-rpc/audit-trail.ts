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
   * Tells every observer from `first` on, in order, each after the previous
   * one settled; a promise only while one of them still works.
   */
  notify(call: CompletedCall, first = 0): Promise<void> | void {
    for (let index = first; index < this.observers.length; index++) {
      const working = this.observers[index].callCompleted(call);
      if (working) return working.then(() => this.notify(call, index + 1));
    }
  }
}
