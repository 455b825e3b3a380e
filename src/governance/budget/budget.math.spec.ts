import { evaluateBudget } from './budget.math';
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

describe('evaluateBudget', () => {
  const now = at('2026-01-31T23:59:30Z');

  it('allows a call that fits, reporting what was left before it', () => {
    expect(evaluateBudget({ spend: 5, estimate: 5, quota, now })).toEqual({
      allowed: true,
      remaining: 5,
    });
  });

  it('refuses an estimate above max_cost_per_call, whatever the budget', () => {
    expect(evaluateBudget({ spend: 0, estimate: 5.5, quota, now })).toEqual({
      allowed: false,
      reason: 'cost_per_call_exceeded',
      remaining: 10,
    });
  });

  it('refuses a call that would pass the monthly budget, retrying at the next month', () => {
    expect(evaluateBudget({ spend: 8, estimate: 3, quota, now })).toEqual({
      allowed: false,
      reason: 'budget_exceeded',
      remaining: 2,
      retryAfter: 30,
    });
  });

  it('lets free calls through an exhausted budget', () => {
    expect(evaluateBudget({ spend: 12, estimate: 0, quota, now })).toEqual({
      allowed: true,
      remaining: 0,
    });
  });

  it('is not fooled by floating point: 0.1 + 0.2 fits a budget of 0.3', () => {
    const tight = { monthly_budget: 0.3, max_cost_per_call: 1 };
    expect(evaluateBudget({ spend: 0.1, estimate: 0.2, quota: tight, now }).allowed).toBe(true);
    expect(evaluateBudget({ spend: 0.1 + 0.2, estimate: 0.1, quota: tight, now })).toMatchObject({
      allowed: false,
      remaining: 0,
    });
  });
});
