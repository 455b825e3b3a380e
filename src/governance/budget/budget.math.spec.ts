import {
  budgetExceeded,
  claimFits,
  costPerCallExceeded,
  maximumCharge,
  remainingBudget,
} from './budget.math';
import {
  secondsUntilNextUtcMonth,
  startOfNextUtcMonth,
  startOfUtcMonth,
  utcMonthKey,
} from './utc-month';

const quota = { monthly_budget: 10, max_cost_per_call: 5 };
const at = (iso: string) => Date.parse(iso);

describe('UTC months', () => {
  it('starts and ends months in UTC, across the year boundary', () => {
    expect(startOfUtcMonth(at('2026-12-31T23:59:59.999Z'))).toBe(at('2026-12-01T00:00:00Z'));
    expect(startOfNextUtcMonth(at('2026-12-31T23:59:59.999Z'))).toBe(at('2027-01-01T00:00:00Z'));
    expect(utcMonthKey(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12');
    expect(utcMonthKey(at('2027-01-01T00:00:00.000Z'))).toBe('2027-01');
  });

  it('counts the seconds to the next month, never fewer than one', () => {
    expect(secondsUntilNextUtcMonth(at('2026-02-28T23:59:00Z'))).toBe(60);
    expect(secondsUntilNextUtcMonth(at('2026-02-28T23:59:59.900Z'))).toBe(1);
    expect(secondsUntilNextUtcMonth(at('2026-03-01T00:00:00Z'))).toBe(31 * 86_400);
  });
});

describe('budget rules', () => {
  const tool = (amount: number) => ({ amount, budget: 10, refuseWhenSpent: true });

  it("reserves the tool's maxCost, else max_cost_per_call, never more than the latter", () => {
    expect(maximumCharge(2, quota)).toBe(2);
    expect(maximumCharge(0, quota)).toBe(0);
    expect(maximumCharge(undefined, quota)).toBe(5);
    expect(maximumCharge(50, quota)).toBe(5);
  });

  it('refuses an estimate above max_cost_per_call, whatever the budget', () => {
    expect(costPerCallExceeded(5, quota)).toBe(false);
    expect(costPerCallExceeded(5.5, quota)).toBe(true);
  });

  it('fits a claim in what is neither spent nor held by calls in flight', () => {
    expect(claimFits(5, 0, tool(5))).toBe(true);
    expect(claimFits(3, 2, tool(5))).toBe(true);
    expect(claimFits(3, 3, tool(5))).toBe(false);
  });

  it('refuses a free tool call once nothing is left, never a resource read', () => {
    expect(claimFits(9, 0, tool(0))).toBe(true);
    expect(claimFits(9, 1, tool(0))).toBe(false);
    expect(claimFits(1_000_042, 0, tool(0))).toBe(false);
    expect(claimFits(12, 0, { amount: 0, budget: 10, refuseWhenSpent: false })).toBe(true);
  });

  it('is not fooled by floating point: 0.1 + 0.2 fits a budget of 0.3', () => {
    const tight = (amount: number) => ({ amount, budget: 0.3, refuseWhenSpent: true });
    expect(claimFits(0.1, 0, tight(0.2))).toBe(true);
    expect(claimFits(0.1, 0.2, tight(0.1))).toBe(false);
    expect(remainingBudget(0.1, 0.2, { ...quota, monthly_budget: 0.3 })).toBe(0);
  });

  it('says what was left and retries a refused claim at the next month', () => {
    expect(remainingBudget(8, 1, quota)).toBe(1);
    expect(remainingBudget(12, 0, quota)).toBe(0);
    expect(budgetExceeded(2, at('2026-01-31T23:59:30Z'))).toEqual({
      allowed: false,
      reason: 'budget_exceeded',
      remaining: 2,
      retryAfter: 30,
    });
  });
});
