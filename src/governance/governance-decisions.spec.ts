import { ConsoleLogger, Logger } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { RequestAbort } from '../common/request-abort';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { DispatchedRequestContext } from '../json-rpc/dispatched-request.context';
import { GatewayLogger } from '../logging/gateway-logger';
import { McpSession } from '../session/mcp-session';
import { BudgetUsageMetrics } from './budget/budget-usage.metrics';
import { GovernanceDecisions } from './governance-decisions';
import { GovernanceMetrics } from './governance.metrics';
import { GovernedCall } from './governed-call';
import { QuotaPolicy } from './quota/quota.policy';
import { GovernanceRules } from './rules/governance-rules';

/**
 * Every decision is logged with client, target, decision, reason and remaining
 * quota (the governance issue), allowed calls at debug, and counted in
 * mcp_governance_decisions_total.
 */
function budgetUsage(): BudgetUsageMetrics {
  const rules = new GovernanceRules(DEFAULT_CONFIG);
  return new BudgetUsageMetrics(rules, new QuotaPolicy(rules));
}

describe('GovernanceDecisions', () => {
  const lines: Array<Record<string, unknown>> = [];
  const registry = new Registry();
  const counter = new Counter({
    name: 'decisions',
    help: 'decisions',
    labelNames: ['decision', 'reason'],
    registers: [registry],
  });
  const decisions = new GovernanceDecisions(new GovernanceMetrics(counter, budgetUsage()));

  const debugLogger = new GatewayLogger(
    { level: 'debug', format: 'json' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );

  beforeAll(() => {
    Logger.overrideLogger(debugLogger);
  });

  afterAll(() => {
    Logger.overrideLogger(new ConsoleLogger());
  });

  beforeEach(() => {
    lines.length = 0;
    counter.reset();
  });

  function toolCall(): GovernedCall {
    const session = new McpSession('stdio', 'client-a');
    const context = new DispatchedRequestContext(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'orders_get' } },
      session,
      new RequestAbort(),
      {},
      undefined,
    );
    return { kind: 'tool', target: 'orders_get', clientId: 'client-a', context };
  }

  const count = async (decision: string, reason: string) =>
    (await counter.get()).values.find(
      (v) => v.labels.decision === decision && v.labels.reason === reason,
    )?.value ?? 0;

  it('logs an allowed call at debug with the quota left, and counts it', async () => {
    decisions.allow(toolCall(), { calls_minute: 59, calls_day: 999, budget: 12.5 });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 20,
        context: 'Governance',
        msg: 'governance decision',
        client: 'client-a',
        method: 'tools/call',
        target: 'orders_get',
        decision: 'allow',
        reason: 'within_quota',
        remaining: { calls_minute: 59, calls_day: 999, budget: 12.5 },
      }),
    ]);
    expect(await count('allow', 'within_quota')).toBe(1);
  });

  it('writes no line for an allowed call at the info level', async () => {
    const infoLines: string[] = [];
    Logger.overrideLogger(
      new GatewayLogger(
        { level: 'info', format: 'json' },
        { write: (line: string) => void infoLines.push(line) },
      ),
    );
    try {
      decisions.allow(toolCall(), { calls_minute: 59 });
    } finally {
      Logger.overrideLogger(debugLogger);
    }
    expect(infoLines).toEqual([]);
    expect(await count('allow', 'within_quota')).toBe(1);
  });

  it('logs and counts a denial, records its reason on the call and returns the error to throw', async () => {
    const call = toolCall();
    const error = decisions.deny(call, 'rate_limited', 'Rate limit exceeded', {
      retryable: true,
      retryAfter: 30,
      remaining: { calls_minute: 0 },
    });
    expect(error.reason).toBe('rate_limited');
    expect(call.context.call.denialReason).toBe('rate_limited');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        client: 'client-a',
        target: 'orders_get',
        decision: 'deny',
        reason: 'rate_limited',
        remaining: { calls_minute: 0 },
        retryAfter: 30,
      }),
    ]);
    expect(await count('deny', 'rate_limited')).toBe(1);
  });

  it('logs a hidden target as a not_visible denial, and fail-open as a warning', async () => {
    decisions.hidden(toolCall());
    decisions.failOpen(toolCall(), 'budget', 'redis down');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        decision: 'deny',
        reason: 'not_visible',
        target: 'orders_get',
      }),
      expect.objectContaining({
        level: 40,
        decision: 'allow',
        reason: 'fail_open',
        stage: 'budget',
        error: 'redis down',
      }),
    ]);
    expect(await count('deny', 'not_visible')).toBe(1);
    expect(await count('allow', 'fail_open')).toBe(1);
  });
});
