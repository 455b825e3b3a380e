import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { GatewayConfig } from '../../config/gateway-config';
import { OTHER_CLIENTS } from '../../observability/client-labels';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import { BudgetUsageMetrics } from './budget-usage.metrics';

const at = (iso: string) => Date.parse(iso);
const JANUARY = at('2026-01-20T10:00:00Z');
const FEBRUARY = at('2026-02-01T00:00:05Z');

function rulesWith(budgets: Record<string, number>, enabled = true): GovernanceRules {
  const config: GatewayConfig = structuredClone(DEFAULT_CONFIG);
  config.governance.enabled = enabled;
  config.governance.default_quota.monthly_budget = 100;
  for (const [client, monthly_budget] of Object.entries(budgets)) {
    config.governance.clients[client] = { quota: { monthly_budget } };
  }
  return new GovernanceRules(config);
}

describe('BudgetUsageMetrics', () => {
  it('divides the spend of clients with a label of their own by their budget in force', () => {
    const rules = rulesWith({ acme: 10 });
    const usage = new BudgetUsageMetrics(rules, new QuotaPolicy(rules));
    usage.spent('acme', 'acme', 4, JANUARY);
    usage.spent('beta', 'beta', 25, JANUARY);
    expect(Object.fromEntries(usage.ratios(JANUARY))).toEqual({ acme: 0.4, beta: 0.25 });

    // The budget in force when the series is read, not when the spend changed.
    const next = structuredClone(rules.current);
    next.clients.acme = { ...next.clients.acme, quota: { monthly_budget: 40 } };
    rules.replace(next, 'admin');
    expect(usage.ratios(JANUARY).get('acme')).toBe(0.1);
  });

  it('shows the highest ratio among the clients past the label limit as "other", this month only', () => {
    const rules = rulesWith({ small: 4, large: 1000 });
    const usage = new BudgetUsageMetrics(rules, new QuotaPolicy(rules));
    // A larger spend against a larger budget is a smaller ratio: "other" keeps the larger ratio.
    usage.spent(OTHER_CLIENTS, 'small', 3, JANUARY);
    usage.spent(OTHER_CLIENTS, 'large', 500, JANUARY);
    expect(usage.ratios(JANUARY).get(OTHER_CLIENTS)).toBe(0.75);
    expect(usage.ratios(FEBRUARY).has(OTHER_CLIENTS)).toBe(false);
    usage.spent(OTHER_CLIENTS, 'large', 10, FEBRUARY);
    expect(usage.ratios(FEBRUARY).get(OTHER_CLIENTS)).toBe(0.01);
  });

  it('starts every client with a label at 0 in a new month, spend and ratio, without a new spend', () => {
    const rules = rulesWith({ acme: 10 });
    const usage = new BudgetUsageMetrics(rules, new QuotaPolicy(rules));
    usage.spent('acme', 'acme', 9.5, JANUARY);
    expect(usage.spends(JANUARY).get('acme')).toBe(9.5);
    expect(usage.spends(FEBRUARY).get('acme')).toBe(0);
    expect(usage.ratios(FEBRUARY).get('acme')).toBe(0);
  });

  it('shows the highest spend among the clients past the label limit as "other", this month only', () => {
    const rules = rulesWith({ small: 4, large: 1000 });
    const usage = new BudgetUsageMetrics(rules, new QuotaPolicy(rules));
    usage.spent(OTHER_CLIENTS, 'small', 3, JANUARY);
    usage.spent(OTHER_CLIENTS, 'large', 500, JANUARY);
    usage.spent(OTHER_CLIENTS, 'small', 3.5, JANUARY);
    expect(usage.spends(JANUARY).get(OTHER_CLIENTS)).toBe(500);
    expect(usage.spends(FEBRUARY).has(OTHER_CLIENTS)).toBe(false);
    usage.spent(OTHER_CLIENTS, 'small', 1, FEBRUARY);
    expect(usage.spends(FEBRUARY).get(OTHER_CLIENTS)).toBe(1);
  });

  it('has no series for a budget of 0 nor while governance is off', () => {
    const rules = rulesWith({ nothing: 0, 'nothing-either': 0 });
    const usage = new BudgetUsageMetrics(rules, new QuotaPolicy(rules));
    usage.spent('nothing', 'nothing', 0, JANUARY);
    usage.spent(OTHER_CLIENTS, 'nothing-either', 0, JANUARY);
    expect(usage.ratios(JANUARY).size).toBe(0);
    // Spend has a series whatever the budget.
    expect(Object.fromEntries(usage.spends(JANUARY))).toEqual({ nothing: 0, other: 0 });

    const off = rulesWith({ acme: 10 }, false);
    const silent = new BudgetUsageMetrics(off, new QuotaPolicy(off));
    silent.spent('acme', 'acme', 5, JANUARY);
    expect(silent.ratios(JANUARY).size).toBe(0);
    expect(silent.spends(JANUARY).size).toBe(0);
  });
});
