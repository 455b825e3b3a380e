import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { LedgerReadyGuard } from '../ledger/ledger-ready.guard';
import { RequestTracer } from '../observability/tracing/request-tracer';
import { SPAN_GOVERNANCE } from '../observability/tracing/span-attributes';
import { BudgetGuard } from './budget/budget.guard';
import { ClientPermissionGuard } from './identity/client-permission.guard';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { VisibilityGuard } from './visibility/visibility.guard';

/** One step of governance: a guard that allows, or throws its refusal. */
interface GovernanceStep {
  canActivate(context: ExecutionContext): boolean | Promise<boolean>;
}

/** The steps have nothing to say before they ran; their refusal is the span's error. */
const NO_ATTRIBUTES = Object.freeze({});

/**
 * The guard of @Governed(): its steps in the seed's order (the API-key client
 * check, the ledger's readiness, visibility, the budget reservation, the rate
 * limits), the first refusal being the answer. One guard rather than five so
 * that governance is one step of the request's trace.
 */
@Injectable()
export class GovernanceGuard implements CanActivate {
  private readonly steps: readonly GovernanceStep[];

  constructor(
    private readonly tracer: RequestTracer,
    permission: ClientPermissionGuard,
    ledgerReady: LedgerReadyGuard,
    visibility: VisibilityGuard,
    budget: BudgetGuard,
    rateLimit: RateLimitGuard,
  ) {
    this.steps = [permission, ledgerReady, visibility, budget, rateLimit];
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return this.tracer.inSpan(SPAN_GOVERNANCE, NO_ATTRIBUTES, () => this.check(context, 0));
  }

  /** The steps from `first` on; answers at once while they do (in-process stores), else when they do. */
  private check(context: ExecutionContext, first: number): boolean | Promise<boolean> {
    for (let index = first; index < this.steps.length; index++) {
      const allowed = this.steps[index].canActivate(context);
      if (allowed === false) return false;
      if (allowed !== true) {
        return allowed.then((passed) => passed && this.check(context, index + 1));
      }
    }
    return true;
  }
}
