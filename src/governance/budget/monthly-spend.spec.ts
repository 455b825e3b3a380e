import { Counter, Registry } from 'prom-client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { AuditTrail } from '../../json-rpc/audit-trail';
import { CompletedCall } from '../../json-rpc/call-observers';
import { McpRequestContext } from '../../json-rpc/mcp-request-context';
import { KyselyLedgerStore } from '../../ledger/kysely-ledger.store';
import { LedgerRow } from '../../ledger/ledger-row';
import { GovernanceMetrics } from '../governance.metrics';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import { BudgetUsageMetrics } from './budget-usage.metrics';
import { MemorySpendStore } from './memory-spend.store';
import { Claimed, MonthlySpend } from './monthly-spend';

const at = (iso: string) => Date.parse(iso);
const CLIENT = 'budget-client';

function ledgerRow(
  time: number,
  cost: number,
  outcome: LedgerRow['outcome'] = 'success',
): LedgerRow {
  return {
    time,
    requestId: `n:${time}`,
    traceId: 't',
    clientId: CLIENT,
    sessionId: 's',
    transport: 'stdio',
    method: 'tools/call',
    target: 'gov_costly',
    arguments: null,
    outcome,
    errorCode: null,
    denialReason: null,
    durationMs: 1,
    cost,
    resultBytes: 0,
    costFlag: null,
    errorMessage: null,
    resultSha256: null,
    upstreamServer: null,
    upstreamTool: null,
    subject: null,
    tokenId: null,
  };
}

/** A finished call as the dispatcher reports it (only what the spend depends on is real). */
function completed(
  startedAt: number,
  estimatedCost: number,
  call: Partial<McpRequestContext['call']> = {},
): CompletedCall {
  const context = {
    method: 'tools/call',
    clientId: CLIENT,
    call: { target: 'gov_costly', estimatedCost, executed: true, ...call },
  } as unknown as McpRequestContext;
  return {
    context,
    params: {},
    startedAt,
    durationMs: 1,
    cancelled: false,
    response: { jsonrpc: '2.0', id: 1, result: { content: [] } },
  };
}

describe('MonthlySpend across a month boundary (SQLite ledger)', () => {
  let dir: string;
  let ledger: KyselyLedgerStore;
  let store: MemorySpendStore;
  let spend: MonthlySpend;
  let clock: number;

  /** A tool call's claim of `amount` against a budget of 10. */
  const claim = (amount: number, now = clock) =>
    spend.reserve(
      CLIENT,
      spend.nameClaim(now),
      { amount, budget: 10, refuseWhenSpent: true, ttlMs: 60_000 },
      now,
    );
  const stored = async (month: string) => store.get(CLIENT, month);
  /** What the budget guard records on the call for a claim it holds. */
  const held = (claimed: Claimed) =>
    claimed.id === undefined ? undefined : { id: claimed.id, month: claimed.month };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-spend-'));
    ledger = new KyselyLedgerStore({ driver: 'sqlite', path: join(dir, 'ledger.db') });
    await ledger.init();
    clock = at('2026-01-31T23:59:30Z');
    const registry = new Registry();
    const rules = new GovernanceRules(structuredClone(DEFAULT_CONFIG));
    const metrics = new GovernanceMetrics(
      new Counter({
        name: 'd',
        help: 'd',
        labelNames: ['decision', 'reason'],
        registers: [registry],
      }),
      new BudgetUsageMetrics(rules, new QuotaPolicy(rules)),
    );
    store = new MemorySpendStore(() => clock);
    spend = new MonthlySpend(
      structuredClone(DEFAULT_CONFIG),
      store,
      ledger,
      new AuditTrail(),
      metrics,
    );
  });

  afterEach(async () => {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds from this month of the ledger, reserves, and settles with the cost', async () => {
    await ledger.append([
      ledgerRow(at('2025-12-31T23:59:59Z'), 100), // last month: not counted
      ledgerRow(at('2026-01-05T10:00:00Z'), 4),
      ledgerRow(at('2026-01-20T10:00:00Z'), 3),
      ledgerRow(at('2026-01-21T10:00:00Z'), 0, 'denied'),
    ]);
    const first = await claim(2);
    expect(first).toMatchObject({ status: 'reserved', spent: 7, reserved: 0, month: '2026-01' });
    // The claim is held: one more of 2 does not fit in 10.
    expect(await claim(2)).toMatchObject({ status: 'refused', spent: 7, reserved: 2 });
    await spend.callCompleted(
      completed(at('2026-01-31T23:59:00Z'), 2, {
        budgetClaim: held(first),
      }),
    );
    expect(await stored('2026-01')).toEqual({ spent: 9, reserved: 0 });
  });

  it('starts the next month from what the ledger holds for it', async () => {
    await ledger.append([ledgerRow(at('2026-01-10T00:00:00Z'), 9)]);
    expect(await claim(1)).toMatchObject({ status: 'reserved', spent: 9 });
    clock = at('2026-02-01T00:00:00Z');
    expect(await claim(2)).toMatchObject({ status: 'reserved', spent: 0, month: '2026-02' });
  });

  it('reads the ledger once and reserves exactly for many cold claims arriving together', async () => {
    await ledger.append([ledgerRow(at('2026-01-10T00:00:00Z'), 5)]);
    const outcomes = await Promise.all(Array.from({ length: 20 }, async () => claim(1)));
    expect(outcomes.filter((o) => o.status === 'reserved')).toHaveLength(5);
    expect(new Set(outcomes.map((o) => o.spent))).toEqual(new Set([5]));
  });

  it('charges nothing for a denied call and releases its claim', async () => {
    const first = await claim(10);
    expect(await claim(1)).toMatchObject({ status: 'refused' });
    const denied = completed(clock, 10, { budgetClaim: held(first) });
    // A call refused by a later guard never reaches the executor, which marks a call as run.
    denied.context.call.executed = false;
    await spend.callCompleted(denied);
    expect(await stored('2026-01')).toEqual({ spent: 0, reserved: 0 });
    expect(await claim(1)).toMatchObject({ status: 'reserved' });
  });

  it('charges a reported cost capped at max_cost_per_call, and an invalid one at the estimate', async () => {
    const capped = await claim(0);
    await spend.callCompleted(
      completed(clock, 0, {
        cost: 1e6,
        costCap: 4,
        budgetClaim: held(capped),
      }),
    );
    expect(await stored('2026-01')).toEqual({ spent: 4, reserved: 0 });
    const invalid = await claim(1);
    await spend.callCompleted(
      completed(clock, 1, {
        costReportInvalid: true,
        budgetClaim: held(invalid),
      }),
    );
    expect(await stored('2026-01')).toEqual({ spent: 5, reserved: 0 });
  });
});
