import { ErrorCode } from '../../errors/error-code';
import { ToolRegistry } from '../../tools/tool.registry';
import { LIMITED_PER_MINUTE } from '../../../test/fixtures/governance-fixture.capability';
import { HEADER_LIMIT, HEADER_REMAINING, HEADER_RESET, MINUTE_MS } from '../governance.constants';
import { GovernedKind } from '../governed-call';
import {
  fixtureTools,
  GovernanceStack,
  governanceStack,
  GovernanceStackOptions,
  GovernedMethods,
  governedInvocation,
  refusalOf,
} from '../testing/governance.fixture';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RateLimitStorage } from './throttler-record';

/** Every client may call 3 times a minute and 5 times a day; alpha 2 times a minute. */
const QUOTAS: GovernanceStackOptions['config'] = {
  governance: {
    default_quota: { max_calls_per_minute: 3, max_calls_per_day: 5 },
    clients: {
      alpha: { quota: { max_calls_per_minute: 2 } },
      capped: { tool_limits: { 'gov_*': { max_calls_per_minute: 1 } } },
    },
  },
};

/** A counter store that cannot answer: at once (a bug in-process) or with a rejection (Redis). */
function unreachableStorage(answers: 'at once' | 'later'): RateLimitStorage {
  const down = new Error('redis down');
  return {
    increment: () => {
      if (answers === 'later') return Promise.reject(down);
      throw down;
    },
  };
}

describe('RateLimitGuard', () => {
  let tools: ToolRegistry;
  let stack: GovernanceStack;
  let now: number;

  beforeAll(async () => {
    tools = await fixtureTools();
  });

  beforeEach(() => {
    now = Date.UTC(2026, 10, 28, 12, 0, 0);
  });

  afterEach(() => stack?.close());

  const build = (options: GovernanceStackOptions = {}) => {
    stack = governanceStack(tools, {
      throttler: new MemoryThrottlerStorage(() => now),
      config: QUOTAS,
      ...options,
    });
    return stack;
  };

  const invoke = (target: string, client: string, kind: GovernedKind = 'tool') =>
    governedInvocation(kind, target, client);

  /** Calls `target` `times` times, each let through; the last call's record. */
  async function calls(target: string, client: string, times: number) {
    let last = invoke(target, client);
    for (let i = 0; i < times; i++) {
      last = invoke(target, client);
      expect(await stack.rateLimit.canActivate(last.context)).toBe(true);
    }
    return last.rpc;
  }

  it("counts a call in the client's minute and day windows, and reports the tightest in the headers", async () => {
    const { decisions } = build();
    const rpc = await calls('gov_free', 'beta', 1);
    expect(rpc.call.rateWindows).toEqual([
      { window: 'minute', scope: 'client', limit: 3, remaining: 2, resetSeconds: 60 },
      { window: 'day', scope: 'client', limit: 5, remaining: 4, resetSeconds: 86_400 },
    ]);
    expect(rpc.responseHeaders).toEqual({
      [HEADER_LIMIT]: '3',
      [HEADER_REMAINING]: '2',
      [HEADER_RESET]: '60',
    });
    expect(await decisions('allow', 'within_quota')).toBe(1);
  });

  it('refuses the call past the per-minute limit with its window and a retry hint, and only for that client', async () => {
    const { rateLimit, decisions } = build();
    await calls('gov_free', 'alpha', 2);
    now += 15_500;
    const { context, rpc } = invoke('gov_free', 'alpha');
    const error = await refusalOf(() => rateLimit.canActivate(context));

    expect(error.code).toBe(ErrorCode.GovernanceDenied);
    expect(error.message).toBe('Rate limit exceeded: 2 calls per minute; retry in 45 s');
    // The window opened 15.5 s ago: 44.5 s are left, rounded up.
    expect([error.retryable, error.retryAfter]).toEqual([true, 45]);
    expect(error.data).toEqual({
      reason: 'rate_limited',
      window: 'minute',
      scope: 'client',
      limit: 2,
      // The full minute window stops the count: the day window is not counted.
      remaining: { calls_minute: 0 },
    });
    expect(rpc.call.denialReason).toBe('rate_limited');
    expect(rpc.responseHeaders).toEqual({
      [HEADER_LIMIT]: '2',
      [HEADER_REMAINING]: '0',
      [HEADER_RESET]: '45',
      'Retry-After': '45',
    });
    expect(await decisions('deny', 'rate_limited')).toBe(1);

    // Other clients keep their own default quota.
    const other = await calls('gov_free', 'beta', 1);
    expect(other.responseHeaders?.[HEADER_LIMIT]).toBe('3');
  });

  it('does not count a refused call: the client may call again as soon as its window has room', async () => {
    const { rateLimit } = build();
    await calls('gov_free', 'alpha', 2);
    for (let i = 0; i < 3; i++) {
      await refusalOf(() => rateLimit.canActivate(invoke('gov_free', 'alpha').context));
    }
    now += MINUTE_MS;
    const rpc = await calls('gov_free', 'alpha', 1);
    // Two of five calls a day used before, and this one: the refusals took none.
    expect(rpc.call.rateWindows?.[1]).toMatchObject({ window: 'day', remaining: 2 });
  });

  it('refuses past the daily limit with a retry hint up to the end of that window', async () => {
    const { rateLimit } = build();
    for (let minute = 0; minute < 5; minute++) {
      await calls('gov_free', 'beta', 1);
      now += MINUTE_MS;
    }
    const error = await refusalOf(() => rateLimit.canActivate(invoke('gov_free', 'beta').context));
    expect(error.data).toMatchObject({ window: 'day', scope: 'client', limit: 5 });
    expect(error.data.remaining).toEqual({ calls_minute: 2, calls_day: 0 });
    expect(error.retryAfter).toBe(86_400 - 5 * 60);
  });

  it("applies a handler's own rateLimits per client, before and apart from the client's window", async () => {
    const { rateLimit } = build();
    const last = await calls('gov_limited', 'beta', LIMITED_PER_MINUTE);
    expect(last.call.rateWindows?.map((w) => [w.window, w.scope, w.remaining])).toEqual([
      ['minute', 'tool', 0],
      ['minute', 'client', 1],
      ['day', 'client', 3],
    ]);

    const { context, rpc } = invoke('gov_limited', 'beta');
    const error = await refusalOf(() => rateLimit.canActivate(context));
    expect(error.message).toBe(
      `Rate limit exceeded: ${LIMITED_PER_MINUTE} calls of gov_limited per minute; retry in 60 s`,
    );
    expect(error.data).toMatchObject({
      window: 'minute',
      scope: 'tool',
      limit: LIMITED_PER_MINUTE,
    });
    // Refused by the tool's window, which is counted first: the client's was not touched.
    expect(rpc.call.rateWindows).toEqual([
      expect.objectContaining({ scope: 'tool', remaining: 0 }),
    ]);
    await calls('gov_free', 'beta', 1);
    // Another client has its own count of the tool.
    await calls('gov_limited', 'gamma', 1);
  });

  it("applies a client's tool_limits (by glob) when stricter than the handler's", async () => {
    const { rateLimit } = build();
    await calls('gov_limited', 'capped', 1);
    const error = await refusalOf(() =>
      rateLimit.canActivate(invoke('gov_limited', 'capped').context),
    );
    expect(error.data).toMatchObject({ scope: 'tool', limit: 1 });
    await calls('gov_limited', 'beta', 2);
  });

  it.each<[GovernedKind, string]>([
    ['resource', 'skill://trading/entry-monitor'],
    ['prompt', 'plan'],
  ])('counts a %s call in the client windows only', async (kind, target) => {
    build();
    const { context, rpc } = invoke(target, 'beta', kind);
    expect(await stack.rateLimit.canActivate(context)).toBe(true);
    expect(rpc.call.rateWindows?.map((w) => w.scope)).toEqual(['client', 'client']);
  });

  it('applies a rules change to the next call', async () => {
    const { rateLimit, rules } = build();
    await calls('gov_free', 'beta', 1);
    const current = rules.current;
    rules.replace(
      { ...current, default_quota: { ...current.default_quota, max_calls_per_minute: 1 } },
      'admin',
    );
    const error = await refusalOf(() => rateLimit.canActivate(invoke('gov_free', 'beta').context));
    expect(error.data).toMatchObject({ window: 'minute', limit: 1 });
  });

  describe('when the counter store fails', () => {
    it.each(['at once', 'later'] as const)(
      'refuses with governance_unavailable (fails %s), retry in 1 s',
      async (answers) => {
        const { rateLimit, decisions } = build({ throttler: unreachableStorage(answers) });
        const error = await refusalOf(() =>
          rateLimit.canActivate(invoke('gov_free', 'beta').context),
        );
        expect([error.code, error.retryable, error.retryAfter]).toEqual([
          ErrorCode.GovernanceDenied,
          true,
          1,
        ]);
        expect(error.data).toEqual({
          reason: 'governance_unavailable',
          stage: 'rate_limit',
          remaining: {},
        });
        expect(await decisions('deny', 'governance_unavailable')).toBe(1);
      },
    );

    it('lets the call through unmetered with governance.fail_open', async () => {
      const { rateLimit, decisions } = build({
        throttler: unreachableStorage('later'),
        config: { governance: { ...QUOTAS?.governance, fail_open: true } },
      });
      const { context, rpc } = invoke('gov_free', 'beta');
      expect(await rateLimit.canActivate(context)).toBe(true);
      expect(rpc.call.rateWindows).toBeUndefined();
      expect(rpc.responseHeaders).toEqual({});
      expect(await decisions('allow', 'fail_open')).toBe(1);
      expect(await decisions('allow', 'within_quota')).toBe(0);
    });
  });

  it('counts nothing while governance is disabled, nor for ungoverned methods', () => {
    const throttler = new MemoryThrottlerStorage(() => now);
    const { rateLimit } = build({ throttler, config: { governance: { enabled: false } } });
    for (let i = 0; i < 100; i++) {
      expect(rateLimit.canActivate(invoke('gov_free', 'beta').context)).toBe(true);
    }
    stack.close();
    build({ throttler });
    const ungoverned = governedInvocation('tool', 'gov_free', 'beta', {
      handler: GovernedMethods.prototype.list,
    });
    expect(stack.rateLimit.canActivate(ungoverned.context)).toBe(true);
    expect(throttler.size).toBe(0);
  });
});
