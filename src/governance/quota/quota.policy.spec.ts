import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceRules } from '../rules/governance-rules';
import { QuotaPolicy } from './quota.policy';

const config = {
  ...DEFAULT_CONFIG,
  governance: {
    ...DEFAULT_CONFIG.governance,
    clients: {
      'acme-bot': {
        quota: { monthly_budget: 50, max_calls_per_minute: 10 },
        tool_limits: {
          'inventory_*': { max_calls_per_minute: 5 },
          inventory_reorder_report: { max_calls_per_minute: 8, max_calls_per_day: 3 },
        },
      },
    },
  },
} as GatewayConfig;
const policy = new QuotaPolicy(new GovernanceRules(config));

describe('QuotaPolicy', () => {
  it("lays a client's own quota keys over the default quota", () => {
    expect(policy.quotaFor('acme-bot')).toEqual({
      monthly_budget: 50,
      max_calls_per_minute: 10,
      max_calls_per_day: 1000,
      max_cost_per_call: 10,
      max_concurrent_tasks: 10,
    });
    expect(policy.quotaFor('other')).toEqual(DEFAULT_CONFIG.governance.default_quota);
  });

  it('takes the strictest of every matching tool limit and the handler limits', () => {
    expect(policy.toolLimits('acme-bot', 'inventory_reorder_report')).toEqual({
      minute: 5,
      day: 3,
    });
    expect(policy.toolLimits('acme-bot', 'inventory_search', { maxCallsPerMinute: 2 })).toEqual({
      minute: 2,
      day: undefined,
    });
    expect(policy.toolLimits('acme-bot', 'orders_place')).toEqual({});
    expect(policy.toolLimits('other', 'inventory_search', { maxCallsPerDay: 7 })).toEqual({
      minute: undefined,
      day: 7,
    });
  });

  it('applies a rules change, and a handler with other limits, from the next call on', () => {
    const rules = new GovernanceRules(config);
    const fresh = new QuotaPolicy(rules);
    expect(fresh.quotaFor('acme-bot').max_calls_per_minute).toBe(10);
    expect(fresh.toolLimits('acme-bot', 'inventory_search').minute).toBe(5);
    rules.replace(
      {
        ...rules.current,
        clients: {
          'acme-bot': {
            quota: { max_calls_per_minute: 3 },
            tool_limits: { 'inventory_*': { max_calls_per_minute: 2 } },
          },
        },
      },
      'admin',
    );
    expect(fresh.quotaFor('acme-bot').max_calls_per_minute).toBe(3);
    expect(fresh.toolLimits('acme-bot', 'inventory_search').minute).toBe(2);
    expect(fresh.toolLimits('acme-bot', 'inventory_search', { maxCallsPerMinute: 1 }).minute).toBe(
      1,
    );
  });

  it('hands out read-only answers (they are shared between calls)', () => {
    expect(Object.isFrozen(policy.quotaFor('acme-bot'))).toBe(true);
    expect(Object.isFrozen(policy.toolLimits('acme-bot', 'inventory_search'))).toBe(true);
  });
});
