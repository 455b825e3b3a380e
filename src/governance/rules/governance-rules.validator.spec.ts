import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { GLOB_MAX_CHARS, GLOB_MAX_WILDCARDS } from '../../common/glob-pattern';
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

  it('refuses a glob too long, with too many wildcards or in another dialect, naming the key and the cap', () => {
    const result = validator.validate({
      ...valid,
      visibility: { allow: ['*'], deny: [`skill://${'*a'.repeat(GLOB_MAX_WILDCARDS + 1)}`] },
      clients: {
        bot: {
          allow: ['x'.repeat(GLOB_MAX_CHARS + 1)],
          deny: ['skill://{a,b}/*'],
          tool_limits: { '[ab]_*': { max_calls_per_day: 2 } },
        },
      },
    });
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^mcp_server\\.governance\\.visibility\\.deny: glob .* has ${GLOB_MAX_WILDCARDS + 1} wildcards, more than the ${GLOB_MAX_WILDCARDS}`,
          ),
        ),
        expect.stringMatching(
          new RegExp(
            `^mcp_server\\.governance\\.clients\\.bot\\.allow: glob .* more than the ${GLOB_MAX_CHARS} a glob may hold`,
          ),
        ),
        expect.stringMatching(
          /^mcp_server\.governance\.clients\.bot\.deny: glob .*"\{" is not glob syntax/,
        ),
        expect.stringMatching(
          /^mcp_server\.governance\.clients\.bot\.tool_limits: glob .*"\[" is not glob syntax/,
        ),
      ]),
    );
    // Fifteen wildcards are within the cap.
    expect(
      validator.validate({
        ...valid,
        visibility: { allow: ['*'], deny: [`skill://${'*a'.repeat(15)}`] },
      }).ok,
    ).toBe(true);
  });

  it('refuses what is not a section at all', () => {
    expect(validator.validate(null).ok).toBe(false);
    expect(validator.validate({ enabled: true }).ok).toBe(false);
  });
});
