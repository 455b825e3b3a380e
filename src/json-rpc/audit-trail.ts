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

  /** Tells every observer, in order, each after the previous one settled. */
  async notify(call: CompletedCall): Promise<void> {
    for (const observer of this.observers) await observer.callCompleted(call);
  }
}
