import { ExecutionContext, FactoryProvider } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { ThrottlerModuleOptions } from '@nestjs/throttler';
import { Counter } from 'prom-client';
import { BudgetFixtureCapability } from '../../../test/fixtures/budget-fixture.capability';
import { GovernanceFixtureCapability } from '../../../test/fixtures/governance-fixture.capability';
import { RequestAbort } from '../../common/request-abort';
import { DeepPartial } from '../../config/config.loader';
import { specConfig } from '../../config/testing/spec-config';
import { GatewayConfig } from '../../config/gateway-config';
import { GatewayError } from '../../errors/gateway.error';
import { AuditTrail } from '../../json-rpc/audit-trail';
import { DispatchedRequestContext } from '../../json-rpc/dispatched-request.context';
import { RPC_CONTEXT_TYPE } from '../../json-rpc/json-rpc.constants';
import { JsonRpcParams } from '../../json-rpc/json-rpc.types';
import { LedgerReadyGuard } from '../../ledger/ledger-ready.guard';
import { LedgerStore } from '../../ledger/ledger-store';
import { RequestTracer } from '../../observability/tracing/request-tracer';
import { UntracedRequestTracer } from '../../observability/tracing/untraced-request.tracer';
import { PromptRegistry } from '../../prompts/prompt.registry';
import { McpSession } from '../../session/mcp-session';
import { fixtureToolRegistry } from '../../tools/testing/fixture-tools';
import { ToolRegistry } from '../../tools/tool.registry';
import { BudgetUsageMetrics } from '../budget/budget-usage.metrics';
import { BudgetGuard } from '../budget/budget.guard';
import { MemorySpendStore } from '../budget/memory-spend.store';
import { MonthlySpend } from '../budget/monthly-spend';
import { SpendStore } from '../budget/spend.store';
import { GovernanceDecisions } from '../governance-decisions';
import { GovernanceGuard } from '../governance.guard';
import { GovernanceMetrics } from '../governance.metrics';
import { Governed } from '../governed.decorator';
import { GovernedKind } from '../governed-call';
import { GovernedCallState } from '../governed-call.state';
import { GovernedPrompts } from '../governed-prompts';
import { GovernedTools } from '../governed-tools';
import { ApiKeys } from '../identity/api-keys';
import { ClientPermissionGuard } from '../identity/client-permission.guard';
import { QuotaPolicy } from '../quota/quota.policy';
import { MemoryThrottlerStorage } from '../rate-limit/memory-throttler.storage';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { rateLimitOptionsProvider } from '../rate-limit/rate-limit.providers';
import { RateLimitStorage } from '../rate-limit/throttler-record';
import { GovernanceRules } from '../rules/governance-rules';
import { StoreFailurePolicy } from '../store-failure.policy';
import { VisibilityGuard } from '../visibility/visibility.guard';
import { VisibilityPolicy } from '../visibility/visibility.policy';

/*
 * The governance steps of one gateway, wired by hand from their real
 * in-process parts (rules, policies, memory stores), for unit specs of the
 * guards; only the ledger, an I/O edge, is a fake. The tools are the e2e
 * suites' own fixture capabilities, registered by the real HandlerExplorer.
 */

/** @Governed() methods as tools/call, resources/read and prompts/get declare them. */
export class GovernedMethods {
  @Governed({ kind: 'tool', target: 'name' })
  call(): void {}

  @Governed({ kind: 'resource', target: 'uri' })
  read(): void {}

  @Governed({ kind: 'prompt', target: 'name' })
  get(): void {}

  /** Like tools/list: no governance. */
  list(): void {}
}

const HANDLERS: Record<GovernedKind, { method: string; param: string; handler: () => void }> = {
  tool: { method: 'tools/call', param: 'name', handler: GovernedMethods.prototype.call },
  resource: { method: 'resources/read', param: 'uri', handler: GovernedMethods.prototype.read },
  prompt: { method: 'prompts/get', param: 'name', handler: GovernedMethods.prototype.get },
};

export interface GovernedInvocation {
  /** What the guards see. */
  context: ExecutionContext;
  /** The call's record and headers, as the dispatcher would hand them to the method. */
  rpc: DispatchedRequestContext;
}

export interface InvocationOptions {
  /** Headers of an HTTP answer; stdio has none (the default is HTTP's). */
  stdio?: boolean;
  /** Params as sent, replacing the ones made of `kind` and `target`. */
  params?: JsonRpcParams;
  /** A handler other than the governed method of `kind` (an ungoverned one). */
  handler?: () => void;
}

/** A governed call of `target` by `clientId`, in the 'rpc' context the dispatcher makes. */
export function governedInvocation(
  kind: GovernedKind,
  target: string,
  clientId: string,
  options: InvocationOptions = {},
): GovernedInvocation {
  const { method, param, handler } = HANDLERS[kind];
  const params = options.params ?? { [param]: target };
  const session = new McpSession(options.stdio ? 'stdio' : 'streamable-http', clientId);
  const rpc = new DispatchedRequestContext(
    { jsonrpc: '2.0', id: 1, method, params },
    session,
    new RequestAbort(),
    options.stdio ? undefined : {},
    undefined,
  );
  const context = new ExecutionContextHost(
    [params, rpc],
    GovernedMethods,
    options.handler ?? handler,
  );
  context.setType(RPC_CONTEXT_TYPE);
  return { context, rpc };
}

/** The two reads governance makes of the ledger: the month's spend (a seed) and its fault. */
export class LedgerFake {
  spent = 0;
  spendReads = 0;
  failure?: Error;
  broken?: GatewayError;

  spendSince(): Promise<number> {
    this.spendReads++;
    return this.failure ? Promise.reject(this.failure) : Promise.resolve(this.spent);
  }

  fault(): GatewayError | undefined {
    return this.broken;
  }

  asStore(): LedgerStore {
    return this as unknown as LedgerStore;
  }
}

export interface GovernanceStackOptions {
  /** Over the built-in defaults, validated like a config file. */
  config?: DeepPartial<GatewayConfig>;
  spendStore?: SpendStore;
  throttler?: RateLimitStorage;
  tracer?: RequestTracer;
}

export interface GovernanceStack {
  config: GatewayConfig;
  rules: GovernanceRules;
  tools: ToolRegistry;
  prompts: PromptRegistry;
  ledger: LedgerFake;
  spendStore: SpendStore;
  throttler: RateLimitStorage;
  spend: MonthlySpend;
  state: GovernedCallState;
  permission: ClientPermissionGuard;
  ledgerReady: LedgerReadyGuard;
  visibility: VisibilityGuard;
  budget: BudgetGuard;
  rateLimit: RateLimitGuard;
  governance: GovernanceGuard;
  /** How many decisions mcp_governance_decisions_total counted with these labels. */
  decisions(decision: 'allow' | 'deny', reason: string): Promise<number>;
  /** Stops the in-process throttler's sweep timer. */
  close(): void;
}

/** The e2e fixture tools (gov_*, budget_*) in a registry of their own. */
export function fixtureTools(): Promise<ToolRegistry> {
  return fixtureToolRegistry(GovernanceFixtureCapability, BudgetFixtureCapability);
}

/** The whole governance stack over `tools` (see fixtureTools). */
export function governanceStack(
  tools: ToolRegistry,
  options: GovernanceStackOptions = {},
): GovernanceStack {
  const config = specConfig(options.config);
  const rules = new GovernanceRules(config);
  const quotas = new QuotaPolicy(rules);
  const counter = new Counter({
    name: 'spec_governance_decisions',
    help: 'decisions',
    labelNames: ['decision', 'reason'],
    registers: [],
  });
  const metrics = new GovernanceMetrics(counter, new BudgetUsageMetrics(rules, quotas), config);
  const decisions = new GovernanceDecisions(metrics);
  const state = new GovernedCallState();
  const failures = new StoreFailurePolicy(rules, decisions, state);
  const governedTools = new GovernedTools(tools);
  const prompts = new PromptRegistry();
  const ledger = new LedgerFake();
  const spendStore = options.spendStore ?? new MemorySpendStore();
  const throttler = options.throttler ?? new MemoryThrottlerStorage();
  const spend = new MonthlySpend(config, spendStore, ledger.asStore(), new AuditTrail(), metrics);
  const throttlerOptions = (
    rateLimitOptionsProvider as FactoryProvider<ThrottlerModuleOptions>
  ).useFactory(quotas) as ThrottlerModuleOptions;

  const permission = new ClientPermissionGuard(config, new ApiKeys(config), rules, decisions);
  const ledgerReady = new LedgerReadyGuard(ledger.asStore(), config);
  const visibility = new VisibilityGuard(
    rules,
    new VisibilityPolicy(rules),
    governedTools,
    new GovernedPrompts(prompts),
    decisions,
  );
  const budget = new BudgetGuard(
    config,
    rules,
    governedTools,
    quotas,
    spend,
    state,
    decisions,
    failures,
  );
  const rateLimit = new RateLimitGuard(
    throttlerOptions,
    throttler,
    rules,
    quotas,
    governedTools,
    state,
    decisions,
    failures,
  );
  const governance = new GovernanceGuard(
    options.tracer ?? new UntracedRequestTracer(),
    permission,
    ledgerReady,
    visibility,
    budget,
    rateLimit,
  );

  return {
    config,
    rules,
    tools,
    prompts,
    ledger,
    spendStore,
    throttler,
    spend,
    state,
    permission,
    ledgerReady,
    visibility,
    budget,
    rateLimit,
    governance,
    decisions: async (decision, reason) =>
      (await counter.get()).values.find(
        (v) => v.labels.decision === decision && v.labels.reason === reason,
      )?.value ?? 0,
    close: () => {
      if (throttler instanceof MemoryThrottlerStorage) throttler.onApplicationShutdown();
    },
  };
}

/** What a guard threw; fails the test when it let the call through. */
export async function refusalOf(run: () => unknown): Promise<GatewayError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a refusal, the call was let through');
}
