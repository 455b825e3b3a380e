import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { isThenable } from '../../common/is-thenable';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceDecisions } from '../governance-decisions';
import { HEADER_BUDGET_REMAINING } from '../governance.constants';
import { GovernedCall, governedCallOf } from '../governed-call';
import { GovernedCallState } from '../governed-call.state';
import { GovernedTools } from '../governed-tools';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import { StoreFailurePolicy } from '../store-failure.policy';
import {
  BudgetVerdict,
  budgetExceeded,
  costPerCallExceeded,
  maximumCharge,
  remainingBudget,
} from './budget.math';
import { Claimed, MonthlySpend } from './monthly-spend';

interface Facts {
  estimate: number;
  maximum: number;
  monthly_budget: number;
  max_cost_per_call: number;
}

/** A claim outlives its call's timeout by this much, for the ledger write and the settle after it. */
const CLAIM_SLACK_MS = 60_000;

/**
 * The budget step of @Governed(), after visibility: refuses a call whose
 * estimated cost is above the client's `max_cost_per_call`; otherwise
 * reserves the most the call may be charged (maximumCharge) on this month's
 * budget, or refuses the call when it does not fit. MonthlySpend settles the
 * claim with what the call cost, never more than it holds, when the call
 * completes, and releases it when the call did not run. The estimate (the
 * tool's `estimatedCost`, 0 for resources) and that maximum, the cap on a
 * reported cost, are recorded on the call for the ledger.
 */
@Injectable()
export class BudgetGuard implements CanActivate {
  private readonly defaultTimeoutMs: number;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly rules: GovernanceRules,
    private readonly tools: GovernedTools,
    private readonly quotas: QuotaPolicy,
    private readonly spend: MonthlySpend,
    private readonly state: GovernedCallState,
    private readonly decisions: GovernanceDecisions,
    private readonly failures: StoreFailurePolicy,
  ) {
    this.defaultTimeoutMs = config.tools.default_timeout_seconds * 1000;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const call = governedCallOf(context);
    if (!call) return true;
    const tool = call.kind === 'tool' ? this.tools.get(call.target) : undefined;
    const estimate = tool?.options.estimatedCost ?? 0;
    const quota = this.quotas.quotaFor(call.clientId);
    // A resource read, a prompt or an unknown tool cannot report a cost: it may be charged nothing.
    const maximum = tool ? maximumCharge(tool.options.maxCost, quota) : 0;
    // Recorded even with governance off: the ledger charges them.
    call.context.call.estimatedCost = estimate;
    call.context.call.costCap = maximum;
    if (!this.rules.enabled) return true;
    // Refused whatever the budget; its empty claim still reads the budget left, for the answer.
    const tooCostly = costPerCallExceeded(estimate, quota);

    const timeoutMs = (tool?.options.timeoutSeconds ?? 0) * 1000 || this.defaultTimeoutMs;
    const facts: Facts = { estimate, maximum, ...quota };
    const amount = tooCostly ? 0 : maximum;
    const name = this.spend.nameClaim();
    // Until the store answers the claim may be held: a call whose reservation failed settles it too.
    if (amount > 0) call.context.call.budgetClaim = name;
    const failed = (err: unknown) => this.storeFailed(call, err, tooCostly, facts);
    let claimed: Claimed | Promise<Claimed>;
    try {
      claimed = this.spend.reserve(call.clientId, name, {
        amount,
        budget: quota.monthly_budget,
        // Any tool may report a cost, whatever it estimates; a resource read or an unknown tool cannot.
        refuseWhenSpent: !tooCostly && tool !== undefined,
        ttlMs: timeoutMs + CLAIM_SLACK_MS,
      });
    } catch (err) {
      return failed(err);
    }
    if (!isThenable(claimed)) return this.decide(call, claimed, facts, tooCostly);
    return claimed.then((held) => this.decide(call, held, facts, tooCostly), failed);
  }

  /** Without a store a too costly call is still refused; any other goes to the failure policy. */
  private storeFailed(call: GovernedCall, err: unknown, tooCostly: boolean, facts: Facts): true {
    if (tooCostly) {
      const remaining = this.state.remaining(call.context).budget ?? 0;
      throw this.deny(call, { allowed: false, reason: 'cost_per_call_exceeded', remaining }, facts);
    }
    this.failures.handle(call, 'budget', err);
    return true;
  }

  /** Allows the call (its claim held), or throws its refusal (its claim, if any, is released on completion). */
  private decide(call: GovernedCall, claimed: Claimed, facts: Facts, tooCostly: boolean): true {
    const remaining = remainingBudget(claimed.spent, claimed.reserved, facts);
    this.state.setBudgetRemaining(call.context, remaining);
    const headers = call.context.responseHeaders;
    if (headers) headers[HEADER_BUDGET_REMAINING] = String(remaining);
    // The store answered: only a held claim is settled when the call completes.
    call.context.call.budgetClaim =
      claimed.id === undefined ? undefined : { id: claimed.id, month: claimed.month };
    if (tooCostly) {
      throw this.deny(call, { allowed: false, reason: 'cost_per_call_exceeded', remaining }, facts);
    }
    if (claimed.status === 'reserved') return true;
    throw this.deny(call, budgetExceeded(remaining, Date.now()), facts);
  }

  private deny(
    call: GovernedCall,
    verdict: Extract<BudgetVerdict, { allowed: false }>,
    facts: Facts,
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
      `Monthly budget exceeded: ${verdict.remaining} of ${facts.monthly_budget} left this month, ${call.target} may cost up to ${facts.maximum} (estimated at ${facts.estimate})`,
      {
        retryable: true,
        retryAfter: verdict.retryAfter,
        remaining,
        data: {
          estimated_cost: facts.estimate,
          max_cost: facts.maximum,
          monthly_budget: facts.monthly_budget,
        },
      },
    );
  }
}
