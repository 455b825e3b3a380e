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

  canActivate(context: ExecutionContext): Promise<boolean> {
    return this.tracer.inSpan(SPAN_GOVERNANCE, NO_ATTRIBUTES, () => this.check(context));
  }

  private async check(context: ExecutionContext): Promise<boolean> {
    for (const step of this.steps) {
      const allowed = step.canActivate(context);
      if (allowed !== true && !(await allowed)) return false;
    }
    return true;
  }
}
