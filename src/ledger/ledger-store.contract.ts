import { LedgerRow, StoredLedgerRow } from './ledger-row';
import { LedgerStore } from './ledger-store';
import { defineLedgerUsageContract } from './ledger-usage.contract';
import { LedgerWriter } from './ledger.writer';
import { ledgerRow, T0 } from './testing/ledger-row.fixture';
import { startOfUtcMonth } from './usage-windows';

/**
 * The behaviour every LedgerStore must have, written once and run against
 * each implementation (SQLite and PostgreSQL specs call this inside their
 * own describe). Only real databases: the target hands out empty ones.
 */
export interface LedgerStoreTarget {
  /** A new, empty database; every call of the returned function opens another store over it. */
  newDatabase(): Promise<() => LedgerStore>;
  /** A new database as the first release left it (no usage summary), holding `rows`. */
  newLegacyDatabase(rows: readonly LedgerRow[]): Promise<() => LedgerStore>;
}

const withoutId = ({ id: _id, ...row }: StoredLedgerRow): LedgerRow => row;

export function defineLedgerStoreContract(target: LedgerStoreTarget): void {
  const opened: LedgerStore[] = [];
  let openStore: () => LedgerStore;

  async function start(): Promise<LedgerStore> {
    const store = openStore();
    opened.push(store);
    await store.init();
    return store;
  }

  async function freshStore(): Promise<LedgerStore> {
    openStore = await target.newDatabase();
    return start();
  }

  /** Every row, newest first, following beforeId pages of `pageSize`. */
  async function allRows(store: LedgerStore, pageSize = 500): Promise<StoredLedgerRow[]> {
    const rows: StoredLedgerRow[] = [];
    for (;;) {
      const page = await store.query({ limit: pageSize, beforeId: rows.at(-1)?.id });
      rows.push(...page);
      if (page.length < pageSize) return rows;
    }
  }

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  describe('append and query', () => {
    it('stores every field and returns rows newest first with increasing ids', async () => {
      const store = await freshStore();
      const first = ledgerRow({
        time: T0,
        cost: 0.25,
        costFlag: 'capped',
        resultSha256: 'a'.repeat(64),
        upstreamServer: 'github',
        upstreamTool: 'search_issues',
        subject: 'user-8c1f',
        tokenId: 'jti-é-42',
      });
      const second = ledgerRow({
        time: T0 + 5,
        requestId: 's:abc',
        method: 'resources/read',
        target: 'skill://sales/pricing',
        arguments: null,
        outcome: 'denied',
        errorCode: -32003,
        denialReason: 'budget_exceeded',
        errorMessage: 'Budget exceeded: é ✓ [REDACTED]',
        cost: 0,
        resultBytes: 0,
      });
      await store.append([first]);
      await store.append([second]);

      const rows = await store.query({ limit: 10 });
      expect(rows.map(withoutId)).toEqual([second, first]);
      expect(rows[0].id).toBeGreaterThan(rows[1].id);
      expect(Number.isInteger(rows[0].id)).toBe(true);
    });

    it('appends a batch atomically in one call and ignores an empty batch', async () => {
      const store = await freshStore();
      await store.append([]);
      const batch = Array.from({ length: 25 }, (_, i) => ledgerRow({ time: T0 + i }));
      await store.append(batch);
      const rows = await store.query({ limit: 100 });
      expect(rows).toHaveLength(25);
      expect(rows.map((r) => r.time)).toEqual(batch.map((r) => r.time).reverse());
    });

    it('filters by client, target, outcome, from (inclusive) and to (exclusive)', async () => {
      const store = await freshStore();
      await store.append([
        ledgerRow({ clientId: 'a', target: 'x', outcome: 'success', time: T0 }),
        ledgerRow({
          clientId: 'a',
          target: 'y',
          outcome: 'error',
          errorCode: -32005,
          time: T0 + 10,
        }),
        ledgerRow({ clientId: 'b', target: 'x', outcome: 'denied', time: T0 + 20 }),
        ledgerRow({ clientId: 'b', target: 'y', outcome: 'success', time: T0 + 30 }),
      ]);
      const times = async (query: Omit<Parameters<LedgerStore['query']>[0], 'limit'>) =>
        (await store.query({ ...query, limit: 10 })).map((r) => r.time - T0);

      expect(await times({ clientId: 'a' })).toEqual([10, 0]);
      expect(await times({ target: 'x' })).toEqual([20, 0]);
      expect(await times({ outcome: 'success' })).toEqual([30, 0]);
      expect(await times({ from: T0 + 10 })).toEqual([30, 20, 10]);
      expect(await times({ to: T0 + 20 })).toEqual([10, 0]);
      expect(await times({ from: T0 + 10, to: T0 + 30 })).toEqual([20, 10]);
      expect(await times({ clientId: 'b', target: 'y', outcome: 'success' })).toEqual([30]);
      expect(await times({ clientId: 'nobody' })).toEqual([]);
    });

    it('pages newest first with limit and beforeId, every row exactly once', async () => {
      const store = await freshStore();
      await store.append(Array.from({ length: 23 }, (_, i) => ledgerRow({ time: T0 + i })));
      const pages: number[][] = [];
      let beforeId: number | undefined;
      for (;;) {
        const page = await store.query({ limit: 10, beforeId });
        if (page.length === 0) break;
        pages.push(page.map((r) => r.time - T0));
        beforeId = page.at(-1)?.id;
      }
      expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
      expect(pages.flat()).toEqual(Array.from({ length: 23 }, (_, i) => 22 - i));

      const filtered = await store.query({ limit: 5, beforeId: (await allRows(store))[2].id });
      expect(filtered.map((r) => r.time - T0)).toEqual([19, 18, 17, 16, 15]);
    });
  });

  describe('spend and usage', () => {
    it('spendSince sums one client from a month start, across the month boundary', async () => {
      const store = await freshStore();
      const march = Date.UTC(2026, 2, 1);
      await store.append([
        ledgerRow({ clientId: 'a', time: march - 1, cost: 100 }), // last millisecond of February
        ledgerRow({ clientId: 'a', time: march, cost: 2.5 }), // first millisecond of March
        ledgerRow({ clientId: 'a', time: march + 86_400_000, cost: 4 }),
        ledgerRow({ clientId: 'b', time: march + 10, cost: 1_000 }),
        ledgerRow({ clientId: 'a', time: march + 20, cost: 0, outcome: 'denied' }),
      ]);

      expect(startOfUtcMonth(march + 86_400_000)).toBe(march);
      expect(await store.spendSince('a', march)).toBeCloseTo(6.5);
      expect(await store.spendSince('a', march - 1)).toBeCloseTo(106.5);
      expect(await store.spendSince('a', Date.UTC(2026, 3, 1))).toBe(0);
      expect(await store.spendSince('nobody', 0)).toBe(0);
    });

    it('usage counts calls this minute, today and this month, spend, denials and top tools', async () => {
      const store = await freshStore();
      const now = Date.UTC(2026, 2, 14, 12, 30, 45);
      const thisMinute = Date.UTC(2026, 2, 14, 12, 30, 1);
      const earlierToday = Date.UTC(2026, 2, 14, 1, 0, 0);
      const earlierThisMonth = Date.UTC(2026, 2, 2, 9, 0, 0);
      const lastMonth = Date.UTC(2026, 1, 28, 23, 59, 59);
      const call = (time: number, target: string, extra: Partial<LedgerRow> = {}) =>
        ledgerRow({ clientId: 'a', time, target, ...extra });
      await store.append([
        call(thisMinute, 'orders_get', { cost: 1.5 }),
        call(thisMinute, 'orders_get', { cost: 1.5 }),
        call(earlierToday, 'inventory_search', { cost: 2 }),
        call(earlierToday, 'orders_place', {
          cost: 0,
          outcome: 'denied',
          denialReason: 'rate_limited',
        }),
        call(earlierThisMonth, 'orders_place', {
          cost: 0,
          outcome: 'denied',
          denialReason: 'budget_exceeded',
        }),
        call(earlierThisMonth, 'orders_place', {
          cost: 0,
          outcome: 'denied',
          denialReason: 'budget_exceeded',
        }),
        call(earlierThisMonth, 'orders_get', { cost: 3 }),
        call(earlierThisMonth, 'skill://a/b', { method: 'resources/read', cost: 0 }),
        call(lastMonth, 'inventory_search', { cost: 50 }),
        ledgerRow({ clientId: 'b', time: earlierToday, target: 'orders_get', cost: 7 }),
        ledgerRow({ clientId: 'c', time: lastMonth, target: 'orders_get', cost: 9 }),
      ]);

      const [a] = await store.usage(now, 'a');
      expect(a).toEqual({
        clientId: 'a',
        callsThisMinute: 2,
        callsToday: 4,
        callsThisMonth: 8,
        spendThisMonth: 8,
        denialsByReason: { budget_exceeded: 2, rate_limited: 1 },
        topTools: [
          { target: 'orders_get', calls: 3 },
          { target: 'orders_place', calls: 3 },
          { target: 'inventory_search', calls: 1 },
        ],
      });

      const everyone = await store.usage(now);
      expect(everyone.map((u) => u.clientId)).toEqual(['a', 'b']); // c has no rows this month
      expect(everyone[1]).toMatchObject({ callsToday: 1, callsThisMonth: 1, spendThisMonth: 7 });

      expect(await store.usage(now, 'nobody')).toEqual([
        {
          clientId: 'nobody',
          callsThisMinute: 0,
          callsToday: 0,
          callsThisMonth: 0,
          spendThisMonth: 0,
          denialsByReason: {},
          topTools: [],
        },
      ]);
    });
  });

  describe('maintenance', () => {
    it('prune deletes rows older than the cut-off and reports how many', async () => {
      const store = await freshStore();
      await store.append([
        ledgerRow({ time: T0 - 2 }),
        ledgerRow({ time: T0 - 1 }),
        ledgerRow({ time: T0 }),
        ledgerRow({ time: T0 + 1 }),
      ]);
      expect(await store.prune(T0)).toBe(2);
      expect((await store.query({ limit: 10 })).map((r) => r.time - T0)).toEqual([1, 0]);
      expect(await store.prune(T0)).toBe(0);
    });

    it('answers ping while open and fails it once closed', async () => {
      const store = await freshStore();
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await expect(store.ping()).rejects.toThrow();
    });

    it('keeps committed rows across close and reopen (init is idempotent)', async () => {
      const store = await freshStore();
      const rows = [ledgerRow({ time: T0 }), ledgerRow({ time: T0 + 1 })];
      await store.append(rows);
      await store.close();

      const reopened = await start();
      expect((await reopened.query({ limit: 10 })).map(withoutId)).toEqual([...rows].reverse());
      await reopened.append([ledgerRow({ time: T0 + 2 })]);
      expect(await reopened.query({ limit: 10 })).toHaveLength(3);
    });
  });

  describe('group commit through LedgerWriter', () => {
    it('commits many concurrent records, all of them, in far fewer transactions than rows', async () => {
      const store = await freshStore();
      const writer = new LedgerWriter(store);
      const rows = Array.from({ length: 1_200 }, (_, i) =>
        ledgerRow({ time: T0 + i, requestId: `n:${i}` }),
      );

      await Promise.all(rows.map((row) => writer.record(row)));

      const stored = await allRows(store);
      expect(stored).toHaveLength(rows.length);
      expect(new Set(stored.map((r) => r.requestId)).size).toBe(rows.length);
      // Each batch is one multi-row INSERT: one transaction.
      expect(writer.stats.rows).toBe(rows.length);
      expect(writer.stats.batches).toBeGreaterThanOrEqual(3); // at most 500 rows each
      expect(writer.stats.batches).toBeLessThan(rows.length / 100);
    });

    it('keeps batches within the bound and groups rows that arrive during a commit', async () => {
      const store = await freshStore();
      const writer = new LedgerWriter(store, 100);
      const first = Promise.all(
        Array.from({ length: 250 }, (_, i) => writer.record(ledgerRow({ time: T0 + i }))),
      );
      // These arrive while the first commits are under way.
      const later = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        Promise.all(
          Array.from({ length: 50 }, (_, i) => writer.record(ledgerRow({ time: T0 + 250 + i }))),
        ),
      );
      await Promise.all([first, later]);

      expect(await allRows(store)).toHaveLength(300);
      expect(writer.stats.rows).toBe(300);
      expect(writer.stats.batches).toBeGreaterThanOrEqual(3);
      expect(writer.stats.batches).toBeLessThanOrEqual(5);
    });

    it('resolves a lone record only once its row is readable', async () => {
      const store = await freshStore();
      const writer = new LedgerWriter(store);
      await writer.record(ledgerRow({ requestId: 's:lone' }));
      expect((await store.query({ limit: 1 }))[0].requestId).toBe('s:lone');
      expect(writer.stats).toEqual({ batches: 1, rows: 1, failedRows: 0 });
    });

    it('commits the rows recorded in one turn together', async () => {
      const store = await freshStore();
      const append = jest.spyOn(store, 'append');
      const writer = new LedgerWriter(store, 100);

      const turn = [
        writer.record(ledgerRow({ requestId: 'a:1' })),
        writer.record(ledgerRow({ requestId: 'a:2' })),
      ];
      // Nothing is committed before the turn ends: a later row of the turn can still join.
      expect(append).not.toHaveBeenCalled();
      await Promise.all(turn);
      expect(append).toHaveBeenCalledTimes(1);
      expect(append.mock.calls[0][0].map((row) => row.requestId)).toEqual(['a:1', 'a:2']);
      expect((await allRows(store)).map((row) => row.requestId).sort()).toEqual(['a:1', 'a:2']);
    });

    it('rejects every row of a batch whose commit fails, and drain() settles', async () => {
      const store = await freshStore();
      const writer = new LedgerWriter(store);
      await store.close();

      const outcomes = await Promise.allSettled(
        Array.from({ length: 3 }, () => writer.record(ledgerRow())),
      );
      await writer.drain();

      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(writer.stats).toEqual({ batches: 1, rows: 0, failedRows: 3 });
    });
  });

  describe('usage summary', () => defineLedgerUsageContract(target));
}
