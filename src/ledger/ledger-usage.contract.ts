import { LEDGER_OUTCOMES, LedgerRow } from './ledger-row';
import type { LedgerStoreTarget } from './ledger-store.contract';
import { LedgerStore } from './ledger-store';
import { LEDGER_MAX_BATCH_ROWS, LEDGER_PRUNE_CHUNK_ROWS } from './ledger.constants';
import { LedgerWriter } from './ledger.writer';
import { referenceUsage } from './testing/ledger-usage.reference';
import { ledgerRow } from './testing/ledger-row.fixture';
import { startOfUtcMonth } from './usage-windows';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Saturday 2026-03-14T12:30:45Z. */
const NOW = Date.UTC(2026, 2, 14, 12, 30, 45);
const MARCH = Date.UTC(2026, 2, 1);
const APRIL = Date.UTC(2026, 3, 1);
const TODAY = Date.UTC(2026, 2, 14);
const THIS_MINUTE = Date.UTC(2026, 2, 14, 12, 30);

const CLIENTS = ['a', 'b', 'c', 'd', 'e'];
// More tools than TOP_TOOLS_LIMIT, so that the cut and its tie-break are exercised.
const TOOLS = Array.from({ length: 14 }, (_, i) => `tool_${i}`);
const REASONS = ['rate_limited', 'budget_exceeded', 'unknown', null];
// Window edges, each with its neighbour on the other side.
const EDGES = [MARCH - 1, MARCH, TODAY - 1, TODAY, THIS_MINUTE - 1, THIS_MINUTE, NOW, APRIL - 1];

/** A small deterministic generator (mulberry32): the same rows on every run and engine. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Rows of every kind around NOW: last month, this month, today, this minute,
 * later this month and next month; all outcomes, denials with and without a
 * reason, resources as well as tools. Costs are multiples of 0.25, which
 * floating point adds exactly in any order.
 */
function randomRows(count: number, seed: number): LedgerRow[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const times: Array<() => number> = [
    () => pick(EDGES),
    () => MARCH - Math.floor(next() * 20 * DAY_MS),
    () => MARCH + Math.floor(next() * (TODAY - MARCH)),
    () => TODAY + Math.floor(next() * (THIS_MINUTE - TODAY)),
    () => THIS_MINUTE + Math.floor(next() * (NOW - THIS_MINUTE)),
    () => NOW + Math.floor(next() * (APRIL - NOW)),
    () => APRIL + Math.floor(next() * 5 * DAY_MS),
  ];
  return Array.from({ length: count }, () => {
    const outcome = pick(LEDGER_OUTCOMES);
    const read = next() < 0.2;
    return ledgerRow({
      time: pick(times)(),
      clientId: pick(CLIENTS),
      method: read ? 'resources/read' : 'tools/call',
      target: read ? `skill://docs/${pick(TOOLS)}` : pick(TOOLS),
      outcome,
      // A reason on a call that was not denied is not a denial; it must not count as one.
      denialReason: outcome === 'denied' || next() < 0.05 ? pick(REASONS) : null,
      cost: outcome === 'denied' ? 0 : Math.floor(next() * 17) / 4,
    });
  });
}

/** Appends in uneven batches, some straight to the store, some through group commit. */
async function appendInBatches(store: LedgerStore, rows: LedgerRow[], seed: number): Promise<void> {
  const next = random(seed);
  const writer = new LedgerWriter(store, 7);
  for (let at = 0; at < rows.length;) {
    const batch = rows.slice(at, at + 1 + Math.floor(next() * 60));
    at += batch.length;
    if (next() < 0.5) await store.append(batch);
    else await Promise.all(batch.map((row) => writer.record(row)));
  }
}

async function expectUsageOfRows(store: LedgerStore, rows: readonly LedgerRow[], now = NOW) {
  expect(await store.usage(now)).toEqual(referenceUsage(rows, now));
  for (const clientId of [...CLIENTS, 'nobody']) {
    expect(await store.usage(now, clientId)).toEqual(referenceUsage(rows, now, clientId));
    // The monthly budget's question (from a month start, read from the summary), and any other.
    for (const from of [startOfUtcMonth(now), startOfUtcMonth(now) - 1, now]) {
      const spend = rows
        .filter((row) => row.clientId === clientId && row.time >= from)
        .reduce((sum, row) => sum + row.cost, 0);
      expect(await store.spendSince(clientId, from)).toBe(spend);
    }
  }
}

/**
 * The usage summary against the rows it summarises: whatever was appended,
 * pruned or migrated, usage() answers what reading every row answers
 * (testing/ledger-usage.reference.ts).
 */
export function defineLedgerUsageContract(target: LedgerStoreTarget): void {
  const opened: LedgerStore[] = [];

  async function open(database: () => LedgerStore): Promise<LedgerStore> {
    const store = database();
    opened.push(store);
    await store.init();
    return store;
  }

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it('matches a scan of the rows after single appends, batches and group commits', async () => {
    const store = await open(await target.newDatabase());
    const rows = randomRows(700, 1);
    await appendInBatches(store, rows, 2);

    await expectUsageOfRows(store, rows);
    // The same rows seen from the month before (nothing is "this month" yet) and the month after.
    await expectUsageOfRows(store, rows, MARCH - 1);
    await expectUsageOfRows(store, rows, APRIL + 3 * DAY_MS);
    await expectUsageOfRows(store, rows, TODAY + 5 * MINUTE_MS);
  });

  it('stays equal to the rows while retention prunes, down to inside this minute', async () => {
    const store = await open(await target.newDatabase());
    let rows = randomRows(600, 3);
    await appendInBatches(store, rows, 4);

    const cutOffs = [
      MARCH - 3 * DAY_MS,
      MARCH,
      MARCH + 9 * DAY_MS + 7,
      TODAY + 1,
      THIS_MINUTE + 20,
    ];
    for (const before of cutOffs) {
      const kept = rows.filter((row) => row.time >= before);
      expect(await store.prune(before)).toBe(rows.length - kept.length);
      rows = kept;
      await expectUsageOfRows(store, rows);
    }
    // New calls after pruning land on summary rows that pruning emptied or removed.
    const more = randomRows(150, 5);
    await appendInBatches(store, more, 6);
    await expectUsageOfRows(store, [...rows, ...more]);
  });

  it('prunes more rows than one chunk holds, all of them, summary included', async () => {
    const store = await open(await target.newDatabase());
    const rows = randomRows(LEDGER_PRUNE_CHUNK_ROWS * 2 + 300, 13);
    for (let at = 0; at < rows.length; at += LEDGER_MAX_BATCH_ROWS) {
      await store.append(rows.slice(at, at + LEDGER_MAX_BATCH_ROWS));
    }
    const kept = rows.filter((row) => row.time >= NOW);
    expect(await store.prune(NOW)).toBe(rows.length - kept.length);
    await expectUsageOfRows(store, kept);
  });

  it('drops a client whose calls this month were all pruned', async () => {
    const store = await open(await target.newDatabase());
    await store.append([
      ledgerRow({ clientId: 'gone', time: MARCH + DAY_MS, cost: 2 }),
      ledgerRow({ clientId: 'stays', time: TODAY, cost: 3 }),
    ]);
    await store.prune(MARCH + 2 * DAY_MS);
    expect((await store.usage(NOW)).map((u) => u.clientId)).toEqual(['stays']);
    expect((await store.usage(NOW, 'gone'))[0]).toMatchObject({
      callsThisMonth: 0,
      spendThisMonth: 0,
    });
  });

  it('counts a denial without a reason as "unknown", together with those that say so', async () => {
    const store = await open(await target.newDatabase());
    const denied = (denialReason: string | null) =>
      ledgerRow({ clientId: 'a', time: NOW, outcome: 'denied', denialReason, cost: 0 });
    await store.append([denied(null), denied('unknown'), denied(null), denied('rate_limited')]);
    const [a] = await store.usage(NOW, 'a');
    expect(a.denialsByReason).toEqual({ unknown: 3, rate_limited: 1 });
  });

  it('adds fractional costs as a scan does, to within rounding', async () => {
    const store = await open(await target.newDatabase());
    const costs = [0.1, 0.2, 0.7, 0.05, 1.3, 0.15, 0.1];
    const rows = costs.map((cost, i) => ledgerRow({ clientId: 'a', time: NOW - i * DAY_MS, cost }));
    await store.append(rows.slice(0, 3));
    await store.append(rows.slice(3));
    await store.prune(NOW - 4.5 * DAY_MS);
    const [a] = await store.usage(NOW, 'a');
    expect(a.callsThisMonth).toBe(5);
    expect(a.spendThisMonth).toBeCloseTo(0.1 + 0.2 + 0.7 + 0.05 + 1.3, 9);
  });

  it('fills the summary from the rows of a ledger that predates it (migration 0002)', async () => {
    const legacy = randomRows(500, 7);
    const database = await target.newLegacyDatabase(legacy);
    const store = await open(database);
    await expectUsageOfRows(store, legacy);

    const more = randomRows(100, 8);
    await appendInBatches(store, more, 9);
    await store.prune(MARCH + DAY_MS);
    const rows = [...legacy, ...more].filter((row) => row.time >= MARCH + DAY_MS);
    await expectUsageOfRows(store, rows);

    // A second start neither backfills again nor loses anything.
    await store.close();
    await expectUsageOfRows(await open(database), rows);
  });

  it('agrees between two stores sharing one database', async () => {
    const database = await target.newDatabase();
    const [first, second] = [await open(database), await open(database)];
    const rows = randomRows(300, 10);
    await Promise.all([
      appendInBatches(first, rows.slice(0, 150), 11),
      appendInBatches(second, rows.slice(150), 12),
    ]);
    await expectUsageOfRows(first, rows);
    await expectUsageOfRows(second, rows);
  });
}
