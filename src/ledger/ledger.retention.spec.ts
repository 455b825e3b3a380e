import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGatewayConfig } from '../config/config.loader';
import { KyselyLedgerStore } from './kysely-ledger.store';
import { DAY_MS } from './ledger.constants';
import { LedgerRetention } from './ledger.retention';
import { ledgerRow } from './testing/ledger-row.fixture';

describe('LedgerRetention', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-ledger-retention-'));
  let store: KyselyLedgerStore;
  // Boot-time pruning reads the clock, so the rows are placed relative to it.
  const now = Date.now();

  beforeEach(async () => {
    store = new KyselyLedgerStore({ driver: 'sqlite', path: join(dir, `${Date.now()}.db`) });
    await store.init();
    await store.append([
      ledgerRow({ time: now - 40 * DAY_MS }),
      ledgerRow({ time: now - 30 * DAY_MS - 1 }),
      ledgerRow({ time: now - 30 * DAY_MS }),
      ledgerRow({ time: now - DAY_MS }),
    ]);
  });

  afterEach(() => store.close());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const retention = (days: number) =>
    new LedgerRetention(
      loadGatewayConfig({ env: {}, overrides: { ledger: { retention_days: days } } }),
      store,
    );

  it('deletes rows older than retention_days and keeps the rest', async () => {
    expect(await retention(30).pruneNow(now)).toBe(2);
    const kept = await store.query({ limit: 10 });
    expect(kept.map((r) => (now - r.time) / DAY_MS)).toEqual([1, 30]);
  });

  it('keeps everything when retention_days is 0', async () => {
    expect(await retention(0).pruneNow(now)).toBe(0);
    expect(await store.query({ limit: 10 })).toHaveLength(4);
  });

  it('prunes once at boot and stops cleanly', async () => {
    const scheduled = retention(30);
    scheduled.onApplicationBootstrap();
    await scheduled.stop();
    // By the time it runs, the row aged exactly 30 days is a few milliseconds older than that.
    const kept = await store.query({ limit: 10 });
    expect(kept.map((r) => r.time)).toEqual([now - DAY_MS]);
  });

  it('warns at boot when retention is shorter than a month, since statistics then lose calls of this month', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      for (const days of [7, 31]) {
        const scheduled = retention(days);
        scheduled.onApplicationBootstrap();
        await scheduled.stop();
      }
      expect(warn).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(warn.mock.calls[0][0])).toContain('retention_days is 7, under a month');
    } finally {
      warn.mockRestore();
    }
  });
});
