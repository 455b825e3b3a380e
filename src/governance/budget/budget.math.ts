import { QuotaConfig } from '../../config/gateway-config';
import { secondsUntilNextUtcMonth } from './utc-month';

type Quota = Pick<QuotaConfig, 'monthly_budget' | 'max_cost_per_call'>;

export type BudgetVerdict =
  | { allowed: true; remaining: number }
  | {
      allowed: false;
      reason: 'cost_per_call_exceeded' | 'budget_exceeded';
      /** Budget left this month (before this call). */
      remaining: number;
      /** Seconds until the budget resets; absent when waiting cannot help. */
      retryAfter?: number;
    };

// Spend accumulates fractions (0.1 + 0.2); a call that fits exactly must not be refused by rounding.
export const MONEY_EPSILON = 1e-9;

/** An estimate above `max_cost_per_call` is never allowed, whatever the budget. */
export function costPerCallExceeded(estimate: number, quota: Quota): boolean {
  return estimate - quota.max_cost_per_call > MONEY_EPSILON;
}

/**
 * The most one call may be charged, which its claim reserves: the tool's
 * declared maxCost, else the client's max_cost_per_call (every client has
 * one), never above the latter; a reported cost above it is charged at it.
 */
export function maximumCharge(maxCost: number | undefined, quota: Quota): number {
  return Math.min(maxCost ?? Infinity, quota.max_cost_per_call);
}

/**
 * The budget rule of one claim, against what is spent and held by calls in
 * flight: a call with an estimate must fit in what is left; a free call that
 * may still report a cost (any tool) is refused once nothing is left; a
 * call that cannot cost anything (a resource read) always passes. The Redis
 * store's script applies the same rule.
 */
export function claimFits(
  spent: number,
  reserved: number,
  claim: { amount: number; budget: number; refuseWhenSpent: boolean },
): boolean {
  const committed = spent + reserved;
  if (claim.amount > 0) return committed + claim.amount - claim.budget <= MONEY_EPSILON;
  if (claim.refuseWhenSpent) return claim.budget - committed > MONEY_EPSILON;
  return true;
}

/** Budget left before a call, as clients see it. */
export function remainingBudget(spent: number, reserved: number, quota: Quota): number {
  return roundMoney(Math.max(0, quota.monthly_budget - spent - reserved));
}

/** The verdict of a claim the store refused: it waits for the next UTC month. */
export function budgetExceeded(
  remaining: number,
  now: number,
): Extract<BudgetVerdict, { allowed: false }> {
  return {
    allowed: false,
    reason: 'budget_exceeded',
    remaining,
    retryAfter: secondsUntilNextUtcMonth(now),
  };
}

/** Money shown to clients: no 0.30000000000000004. */
export function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
