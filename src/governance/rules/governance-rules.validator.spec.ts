import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { GovernanceRulesValidator } from './governance-rules.validator';

const validator = new GovernanceRulesValidator(structuredClone(DEFAULT_CONFIG));
const valid = structuredClone(DEFAULT_CONFIG.governance);

describe('GovernanceRulesValidator', () => {
  it('accepts a whole governance section, clients included', () => {
    const candidate = {
      ...valid,
      clients: {
        bot: {
          quota: { max_calls_per_minute: 5 },
          tool_limits: { 'x_*': { max_calls_per_day: 2 } },
        },
      },
    };
    const result = validator.validate(candidate);
    expect(result).toEqual({ ok: true, rules: candidate });
  });

  it('names every offending key with its full path', () => {
    const result = validator.validate({
      ...valid,
      default_quota: { ...valid.default_quota, max_calls_per_minute: 0 },
      clients: { bot: { quota: { monthly_budget: -1 }, colour: 'red' } },
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^mcp_server\.governance\.default_quota\.max_calls_per_minute: /),
        expect.stringMatching(/^mcp_server\.governance\.clients\.bot\.quota\.monthly_budget: /),
        expect.stringMatching(/^mcp_server\.governance\.clients\.bot\.colour: /),
      ]),
    );
  });

  it('refuses what is not a section at all', () => {
    expect(validator.validate(null).ok).toBe(false);
    expect(validator.validate({ enabled: true }).ok).toBe(false);
  });
});
