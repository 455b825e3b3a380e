import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { GovernanceConfig } from '../../config/gateway-config';
import { GovernanceRules } from './governance-rules';
import { RulesMemo } from './rules-memo';

function rulesWith(governance: Partial<GovernanceConfig> = {}): GovernanceRules {
  return new GovernanceRules({
    ...DEFAULT_CONFIG,
    governance: { ...DEFAULT_CONFIG.governance, ...governance },
  });
}

describe('RulesMemo', () => {
  it('works a value out once per client and target while the rules stay the same', () => {
    const memo = new RulesMemo<string>(rulesWith());
    const compute = jest.fn(() => 'value');
    expect(memo.get('client-a', 'tool_x', compute)).toBe('value');
    expect(memo.get('client-a', 'tool_x', compute)).toBe('value');
    expect(compute).toHaveBeenCalledTimes(1);
    memo.get('client-a', 'tool_y', compute);
    memo.get('client-b', 'tool_x', compute);
    expect(compute).toHaveBeenCalledTimes(3);
  });

  it('works everything out again once the rules are replaced', () => {
    const rules = rulesWith();
    const memo = new RulesMemo<number>(rules);
    let limit = 10;
    const compute = () => limit;
    expect(memo.get('client-a', '', compute)).toBe(10);
    limit = 20;
    expect(memo.get('client-a', '', compute)).toBe(10);
    rules.replace({ ...rules.current, fail_open: !rules.current.fail_open }, 'admin');
    expect(memo.get('client-a', '', compute)).toBe(20);
  });

  it('works a value out again when the caller says the remembered one no longer holds', () => {
    const memo = new RulesMemo<{ version: number }>(rulesWith());
    let version = 1;
    const get = () =>
      memo.get(
        'client-a',
        'tool_x',
        () => ({ version }),
        (remembered) => remembered.version === version,
      );
    expect(get()).toEqual({ version: 1 });
    version = 2;
    expect(get()).toEqual({ version: 2 });
  });

  it('keeps a bounded number of entries, starting over when full', () => {
    const memo = new RulesMemo<number>(rulesWith());
    const compute = jest.fn(() => 1);
    for (let i = 0; i < 65_536; i++) memo.get(`client-${i % 100}`, `target-${i}`, compute);
    memo.get('client-0', 'target-0', compute);
    expect(compute).toHaveBeenCalledTimes(65_536);
    // One more pair: everything is forgotten, so the first pair is worked out again.
    memo.get('client-new', 'target-new', compute);
    memo.get('client-0', 'target-0', compute);
    expect(compute).toHaveBeenCalledTimes(65_538);
  });
});
