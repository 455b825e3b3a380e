import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GovernanceDecisions } from '../governance-decisions';
import { HEADER_BUDGET_REMAINING } from '../governance.constants';
import { GovernedCall, governedCallOf } from '../governed-call';
import { GovernedCallState } from '../governed-call.state';
import { GovernedTools } from '../governed-tools';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import { StoreFailurePolicy } from '../store-failure.policy';
import { BudgetVerdict, evaluateBudget } from './budget.math';
import { MonthlySpend } from './monthly-spend';

/**
 * Second guard: refuses a call whose estimated cost is above the client's
 * `max_cost_per_call`, or would take this month's spend past its
 * `monthly_budget`. The estimate (the tool's `estimatedCost`, 0 for
 * resources) is recorded on the call for the ledger.
 */
@Injectable()
export class BudgetGuard implements CanActivate {
  constructor(
    private readonly rules: GovernanceRules,
    private readonly tools: GovernedTools,
    private readonly quotas: QuotaPolicy,
    private readonly spend: MonthlySpend,
    private readonly state: GovernedCallState,
    private readonly decisions: GovernanceDecisions,
    private readonly failures: StoreFailurePolicy,
  ) {}

  /**
   * Synchronous when the spend is cached in-process (every call but a
   * client's first of the month): Nest then runs the next guard without a
   * promise in between.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const call = governedCallOf(context);
    if (!call) return true;
    const estimate =
      call.kind === 'tool' ? (this.tools.get(call.target)?.options.estimatedCost ?? 0) : 0;
    // Recorded even with governance off: the ledger charges it.
    call.context.call.estimatedCost = estimate;
    if (!this.rules.enabled) return true;

    const cached = this.spend.cachedNow(call.clientId);
    if (cached !== undefined) return this.decide(call, cached, estimate);
    return this.spend.current(call.clientId).then(
      (spend) => this.decide(call, spend, estimate),
      (err: unknown) => {
        this.failures.handle(call, 'budget', err);
        return true;
      },
    );
  }

  /** Allows the call, or throws its refusal. */
  private decide(call: GovernedCall, spend: number, estimate: number): true {
    const quota = this.quotas.quotaFor(call.clientId);
    const verdict = evaluateBudget({ spend, estimate, quota, now: Date.now() });
    this.state.setBudgetRemaining(call.context, verdict.remaining);
    const headers = call.context.responseHeaders;
    if (headers) headers[HEADER_BUDGET_REMAINING] = String(verdict.remaining);
    if (verdict.allowed) return true;
    throw this.deny(call, verdict, { spend, estimate, ...quota });
  }

  private deny(
    call: GovernedCall,
    verdict: Extract<BudgetVerdict, { allowed: false }>,
    facts: { spend: number; estimate: number; monthly_budget: number; max_cost_per_call: number },
  ) {
    const remaining = this.state.remaining(call.context);
    if (verdict.reason === 'cost_per_call_exceeded') {
      return this.decisions.deny(
        call,
        verdict.reason,
        `Cost per call exceeded: ${call.target} is estimated at ${facts.estimate}, above max_cost_per_call ${facts.max_cost_per_call}`,
        {
          retryable: false,
          remaining,
          data: { estimated_cost: facts.estimate, max_cost_per_call: facts.max_cost_per_call },
        },
      );
    }
    return this.decisions.deny(
      call,
      verdict.reason,
      `Monthly budget exceeded: ${verdict.remaining} of ${facts.monthly_budget} left this month, ${call.target} is estimated at ${facts.estimate}`,
      {
        retryable: true,
        retryAfter: verdict.retryAfter,
        remaining,
        data: { estimated_cost: facts.estimate, monthly_budget: facts.monthly_budget },
      },
    );
  }
}
