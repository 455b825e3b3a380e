import { QuotaConfig } from '../../config/gateway-config';
import { secondsUntilNextUtcMonth } from './utc-month';

export interface BudgetInput {
  /** This UTC month's spend so far. */
  spend: number;
  /** What the call is expected to cost. */
  estimate: number;
  quota: Pick<QuotaConfig, 'monthly_budget' | 'max_cost_per_call'>;
  /** Epoch ms; decides which month and when it ends. */
  now: number;
}

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
const EPSILON = 1e-9;

/**
 * The budget rules of one call: an estimate above `max_cost_per_call` is
 * never allowed; otherwise a call that costs something is refused once this
 * month's spend plus its estimate would pass `monthly_budget`. Free calls
 * always pass: the seed refuses high-cost tools, not reads.
 */
export function evaluateBudget({ spend, estimate, quota, now }: BudgetInput): BudgetVerdict {
  const remaining = roundMoney(Math.max(0, quota.monthly_budget - spend));
  if (estimate - quota.max_cost_per_call > EPSILON) {
    return { allowed: false, reason: 'cost_per_call_exceeded', remaining };
  }
  if (estimate > 0 && spend + estimate - quota.monthly_budget > EPSILON) {
    return {
      allowed: false,
      reason: 'budget_exceeded',
      remaining,
      retryAfter: secondsUntilNextUtcMonth(now),
    };
  }
  return { allowed: true, remaining };
}

/** Money shown to clients: no 0.30000000000000004. */
export function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
