import { createHash } from 'node:crypto';
import { isThenable } from '../common/is-thenable';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { SpanAttributes } from '../observability/tracing/request-tracer';
import { SPAN_GOVERNANCE } from '../observability/tracing/span-attributes';
import { UntracedRequestTracer } from '../observability/tracing/untraced-request.tracer';
import { ToolRegistry } from '../tools/tool.registry';
import { COSTLY_ESTIMATE } from '../../test/fixtures/governance-fixture.capability';
import { MemorySpendStore } from './budget/memory-spend.store';
import { ClaimOutcome, SpendStore } from './budget/spend.store';
import { utcMonthKey } from './budget/utc-month';
import { GovernanceGuard } from './governance.guard';
import { MemoryThrottlerStorage } from './rate-limit/memory-throttler.storage';
import {
  fixtureTools,
  GovernanceStack,
  governanceStack,
  GovernanceStackOptions,
  governedInvocation,
  refusalOf,
} from './testing/governance.fixture';
import { VisibilityGuard } from './visibility/visibility.guard';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ALPHA_BUDGET = 3;
const ALPHA_PER_MINUTE = 2;

/** The gateway of the e2e suite in small: alpha has a budget of 3 and 2 calls a minute; keyed holds a key. */
const CONFIG: GovernanceStackOptions['config'] = {
  auth: { mode: 'api_key', api_keys: [`keyed:${sha256('key-k')}`, `alpha:${sha256('key-a')}`] },
  governance: {
    clients: {
      alpha: {
        quota: { monthly_budget: ALPHA_BUDGET, max_calls_per_minute: ALPHA_PER_MINUTE },
      },
    },
  },
};

/** Names the spans it was asked to run. */
class RecordingTracer extends UntracedRequestTracer {
  readonly spans: string[] = [];

  override inSpan<R>(name: string, attributes: SpanAttributes, run: () => R): R {
    this.spans.push(name);
    return super.inSpan(name, attributes, run);
  }
}

/** The in-process store answering with promises, as Redis does. */
function answeringLater(store: MemorySpendStore): SpendStore {
  return {
    reserve: (...args) => Promise.resolve<ClaimOutcome>(store.reserve(...args)),
    settle: (...args) => store.settle(...args),
    get: (...args) => store.get(...args),
  };
}

describe('GovernanceGuard: the order of the steps', () => {
  let tools: ToolRegistry;
  let stack: GovernanceStack;
  let throttler: MemoryThrottlerStorage;
  let spendStore: MemorySpendStore;

  beforeAll(async () => {
    tools = await fixtureTools();
  });

  afterEach(() => stack?.close());

  const build = (options: GovernanceStackOptions = {}) => {
    throttler = new MemoryThrottlerStorage();
    spendStore = new MemorySpendStore();
    stack = governanceStack(tools, { config: CONFIG, throttler, spendStore, ...options });
    return stack;
  };

  const stored = (client: string) => spendStore.get(client, utcMonthKey(Date.now()));

  it('lets a call through once every step agreed, each having left its facts on the record', async () => {
    const tracer = new RecordingTracer();
    const { governance, decisions } = build({ tracer });
    const { context, rpc } = governedInvocation('tool', 'gov_costly', 'alpha');
    expect(await governance.canActivate(context)).toBe(true);
    expect(rpc.call).toMatchObject({
      target: 'gov_costly',
      visible: true,
      estimatedCost: COSTLY_ESTIMATE,
      budgetRemaining: ALPHA_BUDGET,
      budgetClaim: expect.objectContaining({ id: expect.any(String) }),
      rateWindows: [
        expect.objectContaining({ window: 'minute', remaining: ALPHA_PER_MINUTE - 1 }),
        expect.objectContaining({ window: 'day' }),
      ],
    });
    expect(rpc.responseHeaders).toMatchObject({
      'X-Budget-Remaining': String(ALPHA_BUDGET),
      'X-RateLimit-Limit': String(ALPHA_PER_MINUTE),
      'X-RateLimit-Remaining': String(ALPHA_PER_MINUTE - 1),
    });
    // One decision per call, taken by the last step with the whole picture.
    expect(await decisions('allow', 'within_quota')).toBe(1);
    expect(tracer.spans).toEqual([SPAN_GOVERNANCE]);
  });

  it('refuses a client without a key first: nothing is looked up, reserved or counted', async () => {
    const { governance, ledger } = build();
    // Had the ledger's step run first, its fault would be the answer.
    ledger.broken = new GatewayError(ErrorCode.InternalError, 'ledger file replaced');
    const { context, rpc } = governedInvocation('tool', 'gov_secret', 'intruder');
    const error = await refusalOf(() => governance.canActivate(context));
    expect(error.data.reason).toBe('forbidden');
    // Visibility would have named the target; the budget would have estimated its cost.
    expect(rpc.call).toEqual({ denialReason: 'forbidden' });
    expect(ledger.spendReads).toBe(0);
    expect(throttler.size).toBe(0);
  });

  it('refuses while the ledger cannot record, before visibility, budget and rate limits', async () => {
    const { governance, ledger } = build();
    const fault = new GatewayError(ErrorCode.InternalError, 'ledger file replaced');
    ledger.broken = fault;
    const { context, rpc } = governedInvocation('tool', 'gov_costly', 'alpha');
    expect(await refusalOf(() => governance.canActivate(context))).toBe(fault);
    expect(rpc.call).toEqual({});
    expect(throttler.size).toBe(0);
  });

  it('answers a hidden tool as unknown before its budget is reserved or its call counted', async () => {
    const { governance, ledger, decisions } = build();
    const { context, rpc } = governedInvocation('tool', 'gov_secret', 'alpha');
    const error = await refusalOf(() => governance.canActivate(context));
    expect(error.code).toBe(ErrorCode.ToolNotFound);
    expect(rpc.call).toEqual({ target: 'gov_secret' });
    expect(ledger.spendReads).toBe(0);
    expect(await stored('alpha')).toBeUndefined();
    expect(throttler.size).toBe(0);
    expect(await decisions('deny', 'not_visible')).toBe(1);
  });

  it('refuses a budget denial before the rate limits: the refused call takes no call of the minute', async () => {
    const { governance } = build();
    const denied = governedInvocation('tool', 'gov_pricey', 'alpha');
    const error = await refusalOf(() => governance.canActivate(denied.context));
    expect(error.data.reason).toBe('cost_per_call_exceeded');
    expect(denied.rpc.call.rateWindows).toBeUndefined();
    expect(throttler.size).toBe(0);
    for (let i = 0; i < ALPHA_PER_MINUTE; i++) {
      expect(
        await governance.canActivate(governedInvocation('tool', 'gov_free', 'alpha').context),
      ).toBe(true);
    }
  });

  it('keeps the claim of a rate-limited call until its completion releases it, and reports both quotas', async () => {
    const { governance } = build();
    for (let i = 0; i < ALPHA_PER_MINUTE; i++) {
      await governance.canActivate(governedInvocation('tool', 'gov_free', 'alpha').context);
    }
    const { context, rpc } = governedInvocation('tool', 'gov_costly', 'alpha');
    const error = await refusalOf(() => governance.canActivate(context));
    expect(error.data).toMatchObject({
      reason: 'rate_limited',
      remaining: { calls_minute: 0, budget: ALPHA_BUDGET },
    });
    // The budget step ran first and reserved; the refusal does not undo it.
    expect(rpc.call.budgetClaim).toBeDefined();
    expect(await stored('alpha')).toEqual({ spent: 0, reserved: COSTLY_ESTIMATE });

    // The audit trail reports the refused call (it never ran): its claim is released, nothing charged.
    await stack.spend.callCompleted({
      context: rpc,
      params: {},
      startedAt: Date.now(),
      durationMs: 1,
      cancelled: false,
      response: { jsonrpc: '2.0', id: 1, error: { code: error.code, message: error.message } },
    });
    expect(await stored('alpha')).toEqual({ spent: 0, reserved: 0 });
  });

  it('waits for a store that answers later, then runs the remaining steps in order', async () => {
    const { governance } = build({ spendStore: answeringLater(new MemorySpendStore()) });
    const { context, rpc } = governedInvocation('tool', 'gov_costly', 'alpha');
    const answer = governance.canActivate(context);
    expect(isThenable(answer)).toBe(true);
    // The rate limits have not counted the call while the budget is pending.
    expect(rpc.call.rateWindows).toBeUndefined();
    expect(await answer).toBe(true);
    expect(rpc.call.rateWindows).toHaveLength(2);

    const pricey = governedInvocation('tool', 'gov_pricey', 'alpha');
    await refusalOf(() => governance.canActivate(pricey.context));
    expect(pricey.rpc.call.rateWindows).toBeUndefined();
  });

  it('answers at once, without a promise, while every step does (in-process stores, spend cached)', async () => {
    const { governance } = build();
    await governance.canActivate(governedInvocation('tool', 'gov_free', 'alpha').context);
    expect(governance.canActivate(governedInvocation('tool', 'gov_free', 'alpha').context)).toBe(
      true,
    );
  });

  it('stops at a step that answers false, consulting none after it', () => {
    const { permission, ledgerReady, budget, rateLimit, ledger } = build();
    const refusing = { canActivate: () => false } as unknown as VisibilityGuard;
    const guard = new GovernanceGuard(
      new UntracedRequestTracer(),
      permission,
      ledgerReady,
      refusing,
      budget,
      rateLimit,
    );
    const { context, rpc } = governedInvocation('tool', 'gov_costly', 'alpha');
    expect(guard.canActivate(context)).toBe(false);
    expect(rpc.call).toEqual({});
    expect(ledger.spendReads).toBe(0);
    expect(throttler.size).toBe(0);
  });
});
