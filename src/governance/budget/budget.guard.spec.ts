import { isThenable } from '../../common/is-thenable';
import { ErrorCode } from '../../errors/error-code';
import { DispatchedRequestContext } from '../../json-rpc/dispatched-request.context';
import { JsonRpcResponse } from '../../json-rpc/json-rpc.types';
import { ToolRegistry } from '../../tools/tool.registry';
import { HEADER_BUDGET_REMAINING } from '../governance.constants';
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
import { MemorySpendStore } from './memory-spend.store';
import { BudgetClaim, ClaimOutcome, SpendSeed, SpendStore } from './spend.store';
import { secondsUntilNextUtcMonth, utcMonthKey } from './utc-month';

/** Remembers every claim it was asked for. */
class RecordingSpendStore extends MemorySpendStore {
  readonly claims: BudgetClaim[] = [];

  override reserve(clientId: string, month: string, claim: BudgetClaim, seed?: SpendSeed) {
    this.claims.push(claim);
    return super.reserve(clientId, month, claim, seed);
  }
}

/** A store that cannot answer: at once (a broken in-process call) or with a rejection (Redis). */
function unreachableStore(answers: 'at once' | 'later'): SpendStore {
  const down = new Error('spend store down');
  return {
    reserve: (): ClaimOutcome | Promise<ClaimOutcome> => {
      if (answers === 'later') return Promise.reject(down);
      throw down;
    },
    settle: () => Promise.reject(down),
    get: () => Promise.reject(down),
  };
}

const SUCCESS: JsonRpcResponse = { jsonrpc: '2.0', id: 1, result: { content: [] } };
const FAILED: JsonRpcResponse = {
  jsonrpc: '2.0',
  id: 1,
  error: { code: ErrorCode.ExecutionError, message: 'failed' },
};

describe('BudgetGuard', () => {
  let tools: ToolRegistry;
  let stack: GovernanceStack;

  beforeAll(async () => {
    tools = await fixtureTools();
  });

  afterEach(() => stack?.close());

  const build = (options: GovernanceStackOptions = {}) => {
    stack = governanceStack(tools, options);
    return stack;
  };

  /** A governed call of `target` that the guard lets through: its record. */
  async function allowed(target: string, client: string, kind: GovernedKind = 'tool') {
    const { context, rpc } = governedInvocation(kind, target, client);
    expect(await stack.budget.canActivate(context)).toBe(true);
    return rpc;
  }

  /** Reports the call's completion as the dispatcher's audit trail does. */
  function complete(
    rpc: DispatchedRequestContext,
    outcome: { executed: boolean; cost?: number; response?: JsonRpcResponse },
  ) {
    rpc.call.executed = outcome.executed;
    rpc.call.cost = outcome.cost;
    return stack.spend.callCompleted({
      context: rpc,
      params: {},
      startedAt: Date.now(),
      durationMs: 1,
      response: outcome.response,
      cancelled: outcome.response === undefined,
    });
  }

  const stored = (client: string) => stack.spendStore.get(client, utcMonthKey(Date.now()));

  describe('reservation', () => {
    it("reserves the tool's declared maxCost, and records estimate, cap and budget left", async () => {
      build();
      const rpc = await allowed('gov_costly', 'alpha');
      expect(rpc.call).toEqual({
        estimatedCost: 2,
        costCap: 2,
        budgetRemaining: 500,
        budgetClaim: { id: expect.any(String), month: utcMonthKey(Date.now()) },
      });
      expect(rpc.responseHeaders).toEqual({ [HEADER_BUDGET_REMAINING]: '500' });
      expect(await stored('alpha')).toEqual({ spent: 0, reserved: 2 });
    });

    it('reserves max_cost_per_call for a tool that declares no maxCost', async () => {
      build();
      const rpc = await allowed('budget_reporter', 'alpha');
      expect([rpc.call.estimatedCost, rpc.call.costCap]).toEqual([0, 10]);
      expect(await stored('alpha')).toEqual({ spent: 0, reserved: 10 });
    });

    it("never reserves more than the client's max_cost_per_call, whatever the tool declares", async () => {
      build({
        config: { governance: { clients: { small: { quota: { max_cost_per_call: 1 } } } } },
      });
      const rpc = await allowed('budget_bounded', 'small');
      expect([rpc.call.estimatedCost, rpc.call.costCap]).toEqual([0.5, 1]);
      expect(await stored('small')).toEqual({ spent: 0, reserved: 1 });
    });

    it("holds a claim for the tool's timeout (else tools.default_timeout_seconds) plus a minute", async () => {
      const spendStore = new RecordingSpendStore();
      build({ spendStore, config: { tools: { default_timeout_seconds: 30 } } });
      await allowed('budget_bounded', 'alpha');
      await allowed('gov_costly', 'alpha');
      // A cold store is asked twice for one claim (before and after the ledger seed).
      const ttls = new Map(spendStore.claims.map((c) => [c.id, c.ttlMs]));
      expect([...ttls.values()]).toEqual([61_000, 90_000]);
    });

    it('counts every claim in flight against the budget until its call settles', async () => {
      build({ config: { governance: { clients: { alpha: { quota: { monthly_budget: 5 } } } } } });
      for (let i = 0; i < 5; i++) await allowed('budget_unit', 'alpha');
      const error = await refusalOf(() =>
        stack.budget.canActivate(governedInvocation('tool', 'budget_unit', 'alpha').context),
      );
      expect(error.data).toMatchObject({ reason: 'budget_exceeded', remaining: { budget: 0 } });
      expect(await stored('alpha')).toEqual({ spent: 0, reserved: 5 });
    });

    it("reads the month's spend from the ledger once, then answers at once", async () => {
      const { budget, ledger } = build();
      ledger.spent = 1;
      const first = governedInvocation('tool', 'gov_costly', 'alpha');
      const answer = budget.canActivate(first.context);
      expect(isThenable(answer)).toBe(true);
      expect(await answer).toBe(true);
      const second = governedInvocation('tool', 'gov_costly', 'alpha');
      // The in-process store has the spend cached: no promise, no second ledger read.
      expect(budget.canActivate(second.context)).toBe(true);
      expect(ledger.spendReads).toBe(1);
      expect([first.rpc.call.budgetRemaining, second.rpc.call.budgetRemaining]).toEqual([499, 497]);
    });

    it.each<[GovernedKind, string]>([
      ['resource', 'skill://trading/entry-monitor'],
      ['prompt', 'plan'],
      ['tool', 'gov_nonexistent'],
    ])(
      'claims nothing for a %s call that cannot report a cost (%s), even with the budget spent',
      async (kind, target) => {
        const { ledger } = build();
        ledger.spent = 500;
        const rpc = await allowed(target, 'alpha', kind);
        expect(rpc.call).toEqual({ estimatedCost: 0, costCap: 0, budgetRemaining: 0 });
        expect(await stored('alpha')).toEqual({ spent: 500, reserved: 0 });
      },
    );
  });

  describe('refusals', () => {
    const alphaBudget = (monthly_budget: number) => ({
      config: { governance: { clients: { alpha: { quota: { monthly_budget } } } } },
    });

    it('refuses a call past the monthly budget until the next UTC month, holding nothing', async () => {
      const { budget, ledger, decisions } = build(alphaBudget(3));
      ledger.spent = 2;
      const { context, rpc } = governedInvocation('tool', 'gov_costly', 'alpha');
      const before = Date.now();
      const error = await refusalOf(() => budget.canActivate(context));
      const after = Date.now();

      expect(error.code).toBe(ErrorCode.GovernanceDenied);
      expect(error.message).toBe(
        'Monthly budget exceeded: 1 of 3 left this month, gov_costly may cost up to 2 (estimated at 2)',
      );
      expect(error.retryable).toBe(true);
      expect(error.retryAfter).toBeLessThanOrEqual(secondsUntilNextUtcMonth(before));
      expect(error.retryAfter).toBeGreaterThanOrEqual(secondsUntilNextUtcMonth(after));
      expect(error.data).toEqual({
        reason: 'budget_exceeded',
        estimated_cost: 2,
        max_cost: 2,
        monthly_budget: 3,
        remaining: { budget: 1 },
      });
      expect(rpc.call).toMatchObject({ denialReason: 'budget_exceeded', budgetRemaining: 1 });
      expect(rpc.call.budgetClaim).toBeUndefined();
      expect(rpc.responseHeaders).toEqual({ [HEADER_BUDGET_REMAINING]: '1' });
      expect(await stored('alpha')).toEqual({ spent: 2, reserved: 0 });
      expect(await decisions('deny', 'budget_exceeded')).toBe(1);
    });

    it('lets a free tool through while anything is left, and refuses it once nothing is (it may still report a cost)', async () => {
      build(alphaBudget(3)).ledger.spent = 2.5;
      await allowed('gov_free', 'alpha');
      stack.close();
      build(alphaBudget(3)).ledger.spent = 3;
      const error = await refusalOf(() =>
        stack.budget.canActivate(governedInvocation('tool', 'gov_free', 'alpha').context),
      );
      expect(error.data).toMatchObject({
        reason: 'budget_exceeded',
        max_cost: 0,
        remaining: { budget: 0 },
      });
    });

    it('runs nothing on a budget smaller than what a tool without a declared maximum may cost', async () => {
      const { budget } = build(alphaBudget(1));
      const { context, rpc } = governedInvocation('tool', 'budget_reporter', 'alpha');
      const error = await refusalOf(() => budget.canActivate(context));
      expect(error.data).toEqual({
        reason: 'budget_exceeded',
        estimated_cost: 0,
        max_cost: 10,
        monthly_budget: 1,
        remaining: { budget: 1 },
      });
      expect(rpc.call.budgetClaim).toBeUndefined();
    });

    it('refuses an estimate above max_cost_per_call whatever the budget, not retryable, reserving nothing', async () => {
      const { budget, decisions } = build();
      const { context, rpc } = governedInvocation('tool', 'gov_pricey', 'alpha');
      const error = await refusalOf(() => budget.canActivate(context));
      expect(error.message).toBe(
        'Cost per call exceeded: gov_pricey is estimated at 50, above max_cost_per_call 10',
      );
      expect(error.retryable).toBe(false);
      expect(error.retryAfter).toBeUndefined();
      expect(error.data).toEqual({
        reason: 'cost_per_call_exceeded',
        estimated_cost: 50,
        max_cost_per_call: 10,
        remaining: { budget: 500 },
      });
      expect(rpc.call).toMatchObject({ denialReason: 'cost_per_call_exceeded', costCap: 10 });
      expect(rpc.call.budgetClaim).toBeUndefined();
      expect(await stored('alpha')).toEqual({ spent: 0, reserved: 0 });
      expect(await decisions('deny', 'cost_per_call_exceeded')).toBe(1);
    });
  });

  describe('settling, when the audit trail reports the completed call', () => {
    it('charges a reported cost no higher than what the call reserved', async () => {
      build();
      const rpc = await allowed('budget_reporter', 'alpha');
      await complete(rpc, { executed: true, cost: 1_000_000, response: SUCCESS });
      expect(await stored('alpha')).toEqual({ spent: 10, reserved: 0 });
    });

    it('charges what a failed call reported, and keeps nothing reserved', async () => {
      build();
      await complete(await allowed('budget_bounded', 'alpha'), {
        executed: true,
        cost: 1,
        response: FAILED,
      });
      await complete(await allowed('budget_bounded', 'alpha'), {
        executed: true,
        cost: 0.25,
        response: { ...FAILED, error: { code: ErrorCode.Timeout, message: 'timed out' } },
      });
      expect(await stored('alpha')).toEqual({ spent: 1.25, reserved: 0 });
    });

    it('charges the estimate of a call that ran and was cancelled without reporting', async () => {
      build();
      await complete(await allowed('gov_costly', 'alpha'), { executed: true });
      expect(await stored('alpha')).toEqual({ spent: 2, reserved: 0 });
    });

    it('releases the claim of a call that never ran (refused later, invalid arguments)', async () => {
      build();
      await complete(await allowed('gov_costly', 'alpha'), { executed: false, response: FAILED });
      expect(await stored('alpha')).toEqual({ spent: 0, reserved: 0 });
    });
  });

  describe('when the spend store (or the ledger it seeds from) fails', () => {
    it.each(['at once', 'later'] as const)(
      'refuses with governance_unavailable, retry in 1 s, when it fails %s; the named claim stays to settle',
      async (answers) => {
        const { budget, decisions } = build({ spendStore: unreachableStore(answers) });
        const { context, rpc } = governedInvocation('tool', 'gov_costly', 'alpha');
        const error = await refusalOf(() => budget.canActivate(context));
        expect(error.message).toBe(
          'Governance is unavailable (the quota store does not answer); retry shortly',
        );
        expect([error.code, error.retryable, error.retryAfter]).toEqual([
          ErrorCode.GovernanceDenied,
          true,
          1,
        ]);
        expect(error.data).toEqual({
          reason: 'governance_unavailable',
          stage: 'budget',
          remaining: {},
        });
        // Its reservation may have been made all the same: the call's completion settles it by name.
        expect(rpc.call.budgetClaim).toEqual({ id: expect.any(String), month: expect.any(String) });
        expect(await decisions('deny', 'governance_unavailable')).toBe(1);
      },
    );

    it('refuses the same way when the ledger cannot seed the spend', async () => {
      const { budget, ledger } = build();
      ledger.failure = new Error('ledger down');
      const error = await refusalOf(() =>
        budget.canActivate(governedInvocation('tool', 'gov_costly', 'alpha').context),
      );
      expect(error.data).toMatchObject({ reason: 'governance_unavailable', stage: 'budget' });
    });

    it('lets the call through unmetered with governance.fail_open, counting a fail_open decision', async () => {
      const { decisions } = build({
        spendStore: unreachableStore('later'),
        config: { governance: { fail_open: true } },
      });
      const rpc = await allowed('gov_costly', 'alpha');
      expect(rpc.call.budgetRemaining).toBeUndefined();
      expect(rpc.call.budgetClaim).toEqual({ id: expect.any(String), month: expect.any(String) });
      expect(await decisions('allow', 'fail_open')).toBe(1);
    });

    it('still refuses a too costly call, as cost_per_call_exceeded, not governance_unavailable', async () => {
      const { budget } = build({
        spendStore: unreachableStore('at once'),
        config: { governance: { fail_open: true } },
      });
      const error = await refusalOf(() =>
        budget.canActivate(governedInvocation('tool', 'gov_pricey', 'alpha').context),
      );
      expect(error.data).toEqual({
        reason: 'cost_per_call_exceeded',
        estimated_cost: 50,
        max_cost_per_call: 10,
        remaining: {},
      });
    });
  });

  it('with governance disabled records estimate and cap for the ledger, and claims nothing', async () => {
    const { budget, ledger } = build({ config: { governance: { enabled: false } } });
    const { context, rpc } = governedInvocation('tool', 'gov_pricey', 'alpha');
    expect(budget.canActivate(context)).toBe(true);
    expect(rpc.call).toEqual({ estimatedCost: 50, costCap: 10 });
    expect(ledger.spendReads).toBe(0);
    expect(await stored('alpha')).toBeUndefined();
  });

  it('writes no header where the answer has none (stdio), and leaves ungoverned methods alone', async () => {
    build();
    const stdio = governedInvocation('tool', 'gov_costly', 'alpha', { stdio: true });
    expect(await stack.budget.canActivate(stdio.context)).toBe(true);
    expect(stdio.rpc.responseHeaders).toBeUndefined();
    const ungoverned = governedInvocation('tool', 'gov_pricey', 'alpha', {
      handler: GovernedMethods.prototype.list,
    });
    expect(stack.budget.canActivate(ungoverned.context)).toBe(true);
    expect(ungoverned.rpc.call).toEqual({});
  });
});
