import { Gauge, Registry } from 'prom-client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { CallObservers, CompletedCall } from '../../json-rpc/call-observers';
import { McpRequestContext } from '../../json-rpc/mcp-request-context';
import { KyselyLedgerStore } from '../../ledger/kysely-ledger.store';
import { LedgerRow } from '../../ledger/ledger-row';
import { CounterTally } from '../../observability/counter-tally';
import { GovernanceMetrics } from '../governance.metrics';
import { evaluateBudget } from './budget.math';
import { MemorySpendStore } from './memory-spend.store';
import { MonthlySpend } from './monthly-spend';

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
  };
}

/** A finished call as the dispatcher reports it (only what the spend depends on is real). */
function completed(startedAt: number, estimatedCost: number): CompletedCall {
  const context = {
    method: 'tools/call',
    clientId: CLIENT,
    call: { target: 'gov_costly', estimatedCost, executed: true },
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
  let spend: MonthlySpend;
  let clock: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-spend-'));
    ledger = new KyselyLedgerStore({ driver: 'sqlite', path: join(dir, 'ledger.db') });
    await ledger.init();
    clock = at('2026-01-31T23:59:30Z');
    const registry = new Registry();
    const metrics = new GovernanceMetrics(
      new CounterTally(),
      new Gauge({ name: 's', help: 's', labelNames: ['client'], registers: [registry] }),
    );
    spend = new MonthlySpend(
      structuredClone(DEFAULT_CONFIG),
      new MemorySpendStore(() => clock),
      ledger,
      new CallObservers(),
      metrics,
    );
  });

  afterEach(async () => {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds from this month of the ledger and adds completed calls to it', async () => {
    await ledger.append([
      ledgerRow(at('2025-12-31T23:59:59Z'), 100), // last month: not counted
      ledgerRow(at('2026-01-05T10:00:00Z'), 4),
      ledgerRow(at('2026-01-20T10:00:00Z'), 3),
      ledgerRow(at('2026-01-21T10:00:00Z'), 0, 'denied'),
    ]);
    expect(await spend.current(CLIENT, clock)).toBe(7);
    await spend.callCompleted(completed(at('2026-01-31T23:59:00Z'), 2));
    expect(await spend.current(CLIENT, clock)).toBe(9);

    const quota = { monthly_budget: 10, max_cost_per_call: 5 };
    expect(evaluateBudget({ spend: 9, estimate: 2, quota, now: clock })).toMatchObject({
      allowed: false,
      reason: 'budget_exceeded',
      retryAfter: 30,
    });
  });

  it('starts the next month from what the ledger holds for it', async () => {
    await ledger.append([ledgerRow(at('2026-01-10T00:00:00Z'), 9)]);
    expect(await spend.current(CLIENT, clock)).toBe(9);
    // A call that started in January and ended in February is January's, as its ledger row is.
    await spend.callCompleted(completed(at('2026-01-31T23:59:59Z'), 1));
    clock = at('2026-02-01T00:00:00Z');
    expect(await spend.current(CLIENT, clock)).toBe(0);
    expect(await spend.current(CLIENT, at('2026-01-31T23:59:59Z'))).toBe(10);
    const quota = { monthly_budget: 10, max_cost_per_call: 5 };
    expect(evaluateBudget({ spend: 0, estimate: 2, quota, now: clock }).allowed).toBe(true);
  });

  it('answers from the in-process cache synchronously once seeded, per month', async () => {
    await ledger.append([ledgerRow(at('2026-01-10T00:00:00Z'), 5)]);
    expect(spend.cachedNow(CLIENT, clock)).toBeUndefined();
    expect(await spend.current(CLIENT, clock)).toBe(5);
    expect(spend.cachedNow(CLIENT, clock)).toBe(5);
    await spend.callCompleted(completed(clock, 2));
    expect(spend.cachedNow(CLIENT, clock)).toBe(7);
    // Another month has no cached spend until it is read.
    expect(spend.cachedNow(CLIENT, at('2026-02-01T00:00:00Z'))).toBeUndefined();
  });

  it('reads the ledger once for many calls arriving together', async () => {
    await ledger.append([ledgerRow(at('2026-01-10T00:00:00Z'), 5)]);
    const values = await Promise.all(
      Array.from({ length: 20 }, () => spend.current(CLIENT, clock)),
    );
    expect(new Set(values)).toEqual(new Set([5]));
  });

  it('charges nothing for denied calls', async () => {
    expect(await spend.current(CLIENT, clock)).toBe(0);
    const denied = completed(clock, 2);
    // A denied call never reaches the executor, which is what marks a call as run.
    denied.context.call.executed = false;
    denied.response = {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32003, message: 'no', data: { reason: 'budget_exceeded' } },
    };
    await spend.callCompleted(denied);
    expect(await spend.current(CLIENT, clock)).toBe(0);
  });
});
