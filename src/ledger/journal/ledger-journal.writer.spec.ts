import { Logger } from '@nestjs/common';
import fs, { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KyselyLedgerStore } from '../kysely-ledger.store';
import { LedgerWriter } from '../ledger.writer';
import { ledgerRow } from '../testing/ledger-row.fixture';
import { journalDirFor } from './journal-files';
import { parseJournalLine } from './journal-line';
import { LedgerJournalWriter } from './ledger-journal.writer';

type WriteAt = (fd: number, buffer: Buffer, offset?: number, length?: number) => number;
const realWrite = fs.writeSync.bind(fs) as WriteAt;
/** write() as the fs module types it, from a function that only handles buffers. */
const asWriteSync = (write: WriteAt) => write as unknown as typeof fs.writeSync;

type Step = 'ok' | 'partial' | 'zero' | 'all-but-newline' | 'truncate-fails';

const noSpace = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/**
 * Appends one row per step through a journal writer whose write() and
 * ftruncate() fail as the step says (the real calls otherwise), then moves
 * the journal into a real store and returns what reached `ledger`.
 */
async function runSteps(steps: Step[]) {
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-journal-writer-'));
  const path = join(dir, 'ledger.db');
  const store = new KyselyLedgerStore({ driver: 'sqlite', path });
  await store.init();
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  // A second owner in the store's journal directory: the store moves its file like any other.
  const writer = new LedgerJournalWriter(journalDirFor(path), 'writer-under-test', 1 << 30);
  const realTruncate = fs.ftruncateSync.bind(fs);
  let step: Step = 'ok';
  let writes = 0;
  const write = jest.spyOn(fs, 'writeSync').mockImplementation(
    asWriteSync((fd, buffer, offset = 0) => {
      if (fd !== writer.descriptor || step === 'ok' || step === 'truncate-fails') {
        return realWrite(fd, buffer, offset);
      }
      const left = buffer.length - offset;
      // Partial: the first write() takes a third, the next fails; all-but-newline stops one byte short.
      if (step === 'zero' || writes > 0) throw noSpace();
      writes += 1;
      return realWrite(fd, buffer, offset, step === 'partial' ? Math.floor(left / 3) : left - 1);
    }),
  );
  const truncate = jest.spyOn(fs, 'ftruncateSync').mockImplementation((fd, length) => {
    if (step === 'truncate-fails')
      throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    realTruncate(fd, length);
  });

  const acknowledged: string[] = [];
  const refused: string[] = [];
  try {
    for (const [i, current] of steps.entries()) {
      step = current;
      writes = 0;
      const row = ledgerRow({ requestId: `${current}-${i}` });
      try {
        writer.append([row]);
        acknowledged.push(row.requestId);
      } catch {
        refused.push(row.requestId);
      }
    }
    write.mockRestore();
    truncate.mockRestore();
    const lines = readFileSync(join(journalDirFor(path), `${writer.owner}.1.jsonl`), 'utf8');
    const stored = (await store.query({ limit: 1000 })).map((r) => r.requestId).reverse();
    const skipped = warn.mock.calls.filter(([m]) =>
      String((m as { msg?: string }).msg).includes('journal'),
    );
    return { acknowledged, refused, lines, stored, skipped };
  } finally {
    jest.restoreAllMocks();
    writer.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every line of the file whole, and exactly the acknowledged rows in `ledger`. */
function expectNoLoss(result: Awaited<ReturnType<typeof runSteps>>) {
  expect(result.lines.endsWith('\n') || result.lines === '').toBe(true);
  for (const line of result.lines.split('\n').filter(Boolean)) {
    expect(parseJournalLine(line)).toBeDefined();
  }
  expect(result.stored).toEqual(result.acknowledged);
  expect(result.skipped).toEqual([]);
}

describe('LedgerJournalWriter after failed appends', () => {
  it('cuts a partial write before the next append', async () => {
    const result = await runSteps(['ok', 'partial', 'ok', 'ok']);
    expect(result.refused).toEqual(['partial-1']);
    expectNoLoss(result);
  });

  it('cuts a fragment even when a zero-byte failure follows the partial one', async () => {
    const result = await runSteps(['ok', 'partial', 'zero', 'ok']);
    expect(result.refused).toEqual(['partial-1', 'zero-2']);
    expect(result.acknowledged).toEqual(['ok-0', 'ok-3']);
    expectNoLoss(result);
  });

  it('stays whole through any run of failures, a line cut one byte short included', async () => {
    const steps: Step[] = ['zero', 'partial', 'partial', 'zero', 'all-but-newline', 'zero'];
    const result = await runSteps(['ok', ...steps, 'ok', 'all-but-newline', 'ok', 'ok']);
    expect(result.acknowledged).toEqual(['ok-0', 'ok-7', 'ok-9', 'ok-10']);
    expectNoLoss(result);
  });

  it('refuses appends while the cut itself fails, and appends whole lines once it works', async () => {
    const result = await runSteps(['ok', 'partial', 'truncate-fails', 'truncate-fails', 'ok']);
    expect(result.refused).toEqual(['partial-1', 'truncate-fails-2', 'truncate-fails-3']);
    expect(result.acknowledged).toEqual(['ok-0', 'ok-4']);
    expectNoLoss(result);
  });

  it('moves a group commit whole, or not at all when its write was cut', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'owlclaw-journal-writer-'));
    const path = join(dir, 'ledger.db');
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      const group = Array.from({ length: 40 }, (_, i) => ledgerRow({ requestId: `g${i}` }));
      // Every row but the last few of the group written, then the disk is full.
      let journalWrites = 0;
      const spy = jest.spyOn(fs, 'writeSync').mockImplementation(
        asWriteSync((fd, b, o = 0) => {
          if (b[0] !== 0x5b) return realWrite(fd, b, o);
          if (journalWrites++ > 0) throw noSpace();
          return realWrite(fd, b, o, b.length - o - 10);
        }),
      );
      await expect(store.append(group)).rejects.toMatchObject({
        code: -32603,
        retryable: true,
        data: { reason: 'ledger_unavailable' },
      });
      expect(await store.query({ limit: 100 })).toEqual([]);
      spy.mockRestore();

      await store.append(group.slice(0, 3));
      expect((await store.query({ limit: 100 })).map((r) => r.requestId).sort()).toEqual([
        'g0',
        'g1',
        'g2',
      ]);
    } finally {
      jest.restoreAllMocks();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers the callers of a failed commit with a retryable ledger_unavailable error, logged once', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const dir = mkdtempSync(join(tmpdir(), 'owlclaw-journal-writer-'));
    const path = join(dir, 'ledger.db');
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      const ledger = new LedgerWriter(store);
      // Only the journal's writes (its lines start with '[') find the disk full.
      const write = jest.spyOn(fs, 'writeSync').mockImplementation(
        asWriteSync((fd, b, o = 0) => {
          if (Buffer.isBuffer(b) && b[0] === 0x5b) throw noSpace();
          return realWrite(fd, b, o);
        }),
      );
      for (let i = 0; i < 3; i++) {
        await expect(ledger.record(ledgerRow())).rejects.toMatchObject({
          code: -32603,
          retryable: true,
          retryAfter: 1,
          data: { reason: 'ledger_unavailable' },
        });
      }
      write.mockRestore();
      await ledger.record(ledgerRow({ requestId: 'after' }));
      expect((await store.query({ limit: 10 })).map((r) => r.requestId)).toEqual(['after']);
      const failing = error.mock.calls.filter(([m]) =>
        String((m as { msg?: string }).msg).startsWith('ledger commits failing'),
      );
      expect(failing).toHaveLength(1);
      expect(log).toHaveBeenCalledWith(
        expect.objectContaining({ msg: 'ledger commits succeed again', refusedRows: 3 }),
      );
      expect(readdirSync(journalDirFor(path)).length).toBeGreaterThan(0);
    } finally {
      jest.restoreAllMocks();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
