import { Logger } from '@nestjs/common';
import { SqliteDatabase } from '../sqlite-driver';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../test/support/stdio-process';
import { KyselyLedgerStore } from '../kysely-ledger.store';
import { LEDGER_INSERTED_COLUMNS, toColumnValues } from '../ledger-row.columns';
import { ledgerRow } from '../testing/ledger-row.fixture';
import { journalDirFor } from './journal-files';
import { JournalOwnerLock } from './journal-owner.lock';

describe('SQLite ledger journal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'owlclaw-ledger-journal-'));
  let databases = 0;
  const newPath = () => join(dir, `db-${++databases}`, 'ledger.db');
  const files = (path: string) => readdirSync(journalDirFor(path)).sort();
  const requestIds = (path: string) => {
    const db = new SqliteDatabase(path, { readonly: true });
    try {
      return db
        .prepare('select request_id from ledger order by id')
        .all()
        .map((r) => (r as { request_id: string }).request_id);
    } finally {
      db.close();
    }
  };

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());

  it('starts a new file past the size limit and removes each complete file once moved', async () => {
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path }, { rotateBytes: 2_000 });
    await store.init();
    try {
      const rows = Array.from({ length: 60 }, (_, i) => ledgerRow({ requestId: `r${i}` }));
      for (const row of rows) await store.append([row]);
      expect(files(path).filter((f) => f.endsWith('.jsonl')).length).toBeGreaterThan(3);

      expect(await store.query({ limit: 100 })).toHaveLength(60);
      // Only the file appends go to now is left, beside the lock.
      expect(files(path).map((f) => f.replace(/^[^.]+/, 'owner'))).toEqual([
        expect.stringMatching(/^owner\.\d+\.jsonl$/),
        'owner.lock',
      ]);
      expect(requestIds(path)).toEqual(rows.map((r) => r.requestId));
    } finally {
      await store.close();
    }
    expect(files(path)).toEqual([]);
  });

  it('moves lines longer than a move chunk, and multi-byte text cut across chunk ends, intact', async () => {
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path }, { chunkBytes: 1_000 });
    await store.init();
    try {
      const big = ledgerRow({
        requestId: 'big',
        arguments: JSON.stringify({ blob: 'x'.repeat(5_000) }),
      });
      const texts = Array.from({ length: 40 }, (_, i) =>
        ledgerRow({
          requestId: `u${i}`,
          arguments: JSON.stringify({ text: `🦉 façade ${'é'.repeat(i)}` }),
        }),
      );
      await store.append([texts[0], big, ...texts.slice(1)]);
      const stored = new Map((await store.query({ limit: 100 })).map((r) => [r.requestId, r]));
      expect(stored.size).toBe(41);
      expect(stored.get('big')?.arguments).toBe(big.arguments);
      for (const row of texts) expect(stored.get(row.requestId)?.arguments).toBe(row.arguments);
    } finally {
      await store.close();
    }
  });

  it('skips a line a write cut short, says so, and moves the rows around it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      await store.append([ledgerRow({ requestId: 'before' })]);
      const [journal] = files(path).filter((f) => f.endsWith('.jsonl'));
      appendFileSync(join(journalDirFor(path), journal), '[1700000000000,"torn\n');
      await store.append([ledgerRow({ requestId: 'after' })]);

      expect((await store.query({ limit: 10 })).map((r) => r.requestId)).toEqual([
        'after',
        'before',
      ]);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ msg: 'ledger journal line unreadable, skipped', file: journal }),
      );
    } finally {
      await store.close();
    }
  });

  it('skips only the rows the table refuses, whether they share an insert with others or not', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      await store.append([ledgerRow({ requestId: 'first' })]);
      const [journal] = files(path).filter((f) => f.endsWith('.jsonl'));
      const good = Array.from({ length: 68 }, (_, i) => ledgerRow({ requestId: `g${i}` }));
      const lines = good.map((row) => JSON.stringify(toColumnValues(row)));
      // Parseable, the right number of values, but no time: the NOT NULL constraint refuses it.
      const refusedLine = (id: string) =>
        JSON.stringify([null, ...toColumnValues(ledgerRow({ requestId: id })).slice(1)]);
      // One inside the first group of 32 rows inserted together, one among the rows left over.
      lines.splice(3, 0, refusedLine('refused-in-group'));
      lines.splice(66, 0, refusedLine('refused-in-tail'));
      // One write, so that one move sees all of it.
      appendFileSync(join(journalDirFor(path), journal), `${lines.join('\n')}\n`);

      expect(await store.query({ limit: 100 })).toHaveLength(69);
      expect(requestIds(path)).toEqual(['first', ...good.map((r) => r.requestId)]);
      const skipped = warn.mock.calls
        .map(([message]) => message as { msg?: string; line?: string })
        .filter((message) => message.msg === 'ledger journal line unreadable, skipped');
      expect(skipped.map((message) => message.line)).toEqual([
        expect.stringContaining('refused-in-group'),
        expect.stringContaining('refused-in-tail'),
      ]);
    } finally {
      await store.close();
    }
  });

  it('moves a line written before the cost_flag column existed, with no flag', async () => {
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      await store.append([ledgerRow({ requestId: 'first' })]);
      const [journal] = files(path).filter((f) => f.endsWith('.jsonl'));
      const old = toColumnValues(ledgerRow({ requestId: 'old', costFlag: 'capped' })).slice(
        0,
        LEDGER_INSERTED_COLUMNS.indexOf('cost_flag'),
      );
      appendFileSync(join(journalDirFor(path), journal), `${JSON.stringify(old)}\n`);
      const rows = await store.query({ limit: 10 });
      expect(rows.map((r) => [r.requestId, r.costFlag])).toEqual([
        ['old', null],
        ['first', null],
      ]);
    } finally {
      await store.close();
    }
  });

  it('moves lines written before error_message and result_sha256 existed, lone and grouped', async () => {
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      await store.append([ledgerRow({ requestId: 'first', resultSha256: 'f'.repeat(64) })]);
      const [journal] = files(path).filter((f) => f.endsWith('.jsonl'));
      const before0006 = (requestId: string) =>
        toColumnValues(
          ledgerRow({ requestId, costFlag: 'capped', errorMessage: 'lost', resultSha256: 'lost' }),
        ).slice(0, LEDGER_INSERTED_COLUMNS.indexOf('error_message'));
      const lines = [before0006('lone'), [before0006('group-1'), before0006('group-2')]];
      appendFileSync(
        join(journalDirFor(path), journal),
        lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
      );
      const rows = await store.query({ limit: 10 });
      expect(rows.map((r) => [r.requestId, r.costFlag, r.errorMessage, r.resultSha256])).toEqual([
        ['group-2', 'capped', null, null],
        ['group-1', 'capped', null, null],
        ['lone', 'capped', null, null],
        ['first', null, null, 'f'.repeat(64)],
      ]);
    } finally {
      await store.close();
    }
  });

  it('moves a line written before the upstream columns existed, with null server and tool', async () => {
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      const upstream = { upstreamServer: 'github', upstreamTool: 'search_issues' };
      await store.append([ledgerRow({ requestId: 'current', ...upstream })]);
      const [journal] = files(path).filter((f) => f.endsWith('.jsonl'));
      const before0007 = toColumnValues(
        ledgerRow({ requestId: 'old', errorMessage: 'kept', ...upstream }),
      ).slice(0, LEDGER_INSERTED_COLUMNS.indexOf('upstream_server'));
      appendFileSync(join(journalDirFor(path), journal), `${JSON.stringify(before0007)}\n`);
      const rows = await store.query({ limit: 10 });
      expect(
        rows.map((r) => [r.requestId, r.errorMessage, r.upstreamServer, r.upstreamTool]),
      ).toEqual([
        ['old', 'kept', null, null],
        ['current', null, 'github', 'search_issues'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('moves lines written before the token columns existed, with null subject and token id', async () => {
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    try {
      const token = { subject: 'user-8c1f', tokenId: 'jti-42' };
      await store.append([ledgerRow({ requestId: 'current', ...token })]);
      const [journal] = files(path).filter((f) => f.endsWith('.jsonl'));
      const before0008 = (requestId: string) =>
        toColumnValues(ledgerRow({ requestId, upstreamTool: 'search_issues', ...token })).slice(
          0,
          LEDGER_INSERTED_COLUMNS.indexOf('subject'),
        );
      const lines = [before0008('lone'), [before0008('group-1'), before0008('group-2')]];
      appendFileSync(
        join(journalDirFor(path), journal),
        lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
      );
      const rows = await store.query({ limit: 10 });
      expect(rows.map((r) => [r.requestId, r.upstreamTool, r.subject, r.tokenId])).toEqual([
        ['group-2', 'search_issues', null, null],
        ['group-1', 'search_issues', null, null],
        ['lone', 'search_issues', null, null],
        ['current', null, 'user-8c1f', 'jti-42'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('moves the rows on its own connection while the mover thread cannot run', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const path = newPath();
    const broken = join(dir, 'no-such-worker.js');
    const store = new KyselyLedgerStore({ driver: 'sqlite', path }, { workerFile: broken });
    await store.init();
    try {
      const rows = Array.from({ length: 20 }, (_, i) => ledgerRow({ requestId: `w${i}` }));
      await store.append(rows.slice(0, 5));
      await store.append(rows.slice(5));
      expect(await store.query({ limit: 100 })).toHaveLength(20);
      expect(requestIds(path)).toEqual(rows.map((r) => r.requestId));
      expect(error).toHaveBeenCalledWith(
        expect.objectContaining({ msg: 'ledger journal mover thread failed' }),
      );
    } finally {
      await store.close();
    }
    expect(files(path)).toEqual([]);
  });

  it('reports a move that keeps failing once per interval, and keeps the rows in the journal', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const path = newPath();
    const store = new KyselyLedgerStore({ driver: 'sqlite', path });
    await store.init();
    const outside = new SqliteDatabase(path);
    try {
      // Every move now fails: its insert finds no table.
      outside.exec('alter table ledger rename to ledger_elsewhere');
      for (let i = 0; i < 10; i++) {
        await store.append([ledgerRow({ requestId: `kept${i}` })]);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      const failures = warn.mock.calls.filter(
        ([message]) => (message as { msg?: string }).msg === 'ledger move failed',
      );
      expect(failures).toHaveLength(1);
      const journal = readdirSync(journalDirFor(path)).find((f) => f.endsWith('.jsonl')) ?? '';
      const lines = readFileSync(join(journalDirFor(path), journal), 'utf8')
        .trim()
        .split('\n');
      expect(lines).toHaveLength(10);

      outside.exec('alter table ledger_elsewhere rename to ledger');
      expect(await store.query({ limit: 100 })).toHaveLength(10);
    } finally {
      outside.close();
      await store.close();
    }
  });

  it('moves every row exactly once while several processes append and move the same files', async () => {
    const path = newPath();
    const setup = new KyselyLedgerStore({ driver: 'sqlite', path });
    await setup.init();
    await setup.close();
    // dist/ is built by Jest's global setup; each child is its own process and SQLite connection.
    const script = `
      const { KyselyLedgerStore } = require(${JSON.stringify(join(REPO_ROOT, 'dist/ledger/kysely-ledger.store.js'))});
      const [path, name, template] = process.argv.slice(1);
      const row = JSON.parse(template);
      const store = new KyselyLedgerStore({ driver: 'sqlite', path }, { rotateBytes: 20000 });
      (async () => {
        await store.init();
        for (let i = 0; i < 30; i++) {
          await store.append(Array.from({ length: 10 }, (_, j) => ({ ...row, requestId: name + ':' + (i * 10 + j) })));
          await store.query({ limit: 1 });
        }
        await store.close();
      })().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });`;
    const template = JSON.stringify(ledgerRow({ clientId: 'racer', cost: 1 }));
    const exits = await Promise.all(
      ['a', 'b', 'c'].map((name) => {
        const child = spawn(process.execPath, ['-e', script, path, name, template], {
          stdio: 'inherit',
        });
        return new Promise<number | null>((resolve) => child.on('exit', resolve));
      }),
    );
    expect(exits).toEqual([0, 0, 0]);

    const ids = requestIds(path);
    expect(ids).toHaveLength(900);
    expect(new Set(ids).size).toBe(900);
    const db = new SqliteDatabase(path, { readonly: true });
    try {
      expect(db.prepare('select sum(calls) as calls from ledger_usage').get()).toEqual({
        calls: 900,
      });
    } finally {
      db.close();
    }
    expect(files(path)).toEqual([]);
  });

  describe('a file removed or replaced while open', () => {
    const unavailable = { code: -32603, retryable: true, data: { reason: 'ledger_unavailable' } };
    const faults = (error: jest.SpyInstance) =>
      error.mock.calls
        .map(([message]) => message as { msg?: string; rowsMoved?: number })
        .filter((message) => / file (removed|replaced): /.test(message.msg ?? ''));

    it('moves the rows of a removed journal in through its descriptor, then refuses calls', async () => {
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path });
      await store.init();
      try {
        await store.append([ledgerRow({ requestId: 'before' })]);
        const [journal] = files(path).filter((f) => f.endsWith('.jsonl'));
        rmSync(join(journalDirFor(path), journal));
        // Accepted before any check: written to the removed file, which only this process still reads.
        await store.append([
          ledgerRow({ requestId: 'unseen-1' }),
          ledgerRow({ requestId: 'unseen-2' }),
        ]);

        await expect(store.ping()).rejects.toMatchObject(unavailable);
        await expect(store.append([ledgerRow({ requestId: 'refused' })])).rejects.toMatchObject(
          unavailable,
        );
        await expect(store.ping()).rejects.toThrow(/journal file was removed/);
        expect(faults(error)).toEqual([
          expect.objectContaining({ msg: expect.stringContaining('journal file removed') }),
        ]);
      } finally {
        await store.close();
      }
      expect(requestIds(path).sort()).toEqual(['before', 'unseen-1', 'unseen-2']);
    });

    it('finds a removed database within a second, refuses calls, and keeps the journal for the next process', async () => {
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path });
      await store.init();
      try {
        await store.append([ledgerRow({ requestId: 'moved' })]);
        expect(await store.query({ limit: 10 })).toHaveLength(1);
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
        await store.append([ledgerRow({ requestId: 'after-removal' })]);
        // No read, no failure: the periodic check alone finds it.
        await new Promise((resolve) => setTimeout(resolve, 1_300));
        expect(faults(error)).toHaveLength(1);
        await expect(store.append([ledgerRow({ requestId: 'refused' })])).rejects.toMatchObject(
          unavailable,
        );
        await expect(store.query({ limit: 10 })).rejects.toMatchObject(unavailable);
        await expect(store.ping()).rejects.toThrow(/database file was removed/);
      } finally {
        await store.close();
      }
      expect(faults(error)).toHaveLength(1);
      // The journal stays: the next store (a fresh database here) moves every row it holds.
      const next = new KyselyLedgerStore({ driver: 'sqlite', path });
      await next.init();
      await next.close();
      expect(requestIds(path).sort()).toEqual(['after-removal', 'moved']);
    });

    it('keeps complete journal files moved into a database removed before the check found it', async () => {
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path }, { rotateBytes: 2_000 });
      await store.init();
      const rows = Array.from({ length: 40 }, (_, i) => ledgerRow({ requestId: `rot${i}` }));
      try {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
        // Within the check interval: files fill, rotate, and are moved into the removed database.
        for (const row of rows) {
          await store.append([row]);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await expect(store.ping()).rejects.toThrow(/database file was removed/);
      } finally {
        await store.close();
      }
      const next = new KyselyLedgerStore({ driver: 'sqlite', path });
      await next.init();
      await next.close();
      expect(requestIds(path).sort()).toEqual(rows.map((r) => r.requestId).sort());
    });

    it('refuses calls once the database file is replaced by another', async () => {
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const path = newPath();
      const store = new KyselyLedgerStore({ driver: 'sqlite', path });
      await store.init();
      try {
        await store.append([ledgerRow({ requestId: 'kept' })]);
        await store.query({ limit: 1 });
        copyFileSync(path, `${path}.copy`);
        renameSync(`${path}.copy`, path);
        await expect(store.ping()).rejects.toThrow(/database file was replaced/);
        await expect(store.append([ledgerRow()])).rejects.toMatchObject(unavailable);
      } finally {
        await store.close();
      }
    });
  });

  describe('owner lock', () => {
    it('is held while its owner lives, here or in another process, and free once it is gone', async () => {
      const lockDir = mkdtempSync(join(dir, 'locks-'));
      const mine = join(lockDir, 'mine.lock');
      const held = JournalOwnerLock.hold(mine);
      expect(JournalOwnerLock.takeOver(mine)).toBeUndefined();
      held.release();
      expect(JournalOwnerLock.takeOver(mine)).toBe('missing');

      const theirs = join(lockDir, 'theirs.lock');
      const script = `
        const { JournalOwnerLock } = require(${JSON.stringify(join(REPO_ROOT, 'dist/ledger/journal/journal-owner.lock.js'))});
        JournalOwnerLock.hold(process.argv[1]);
        process.stdout.write('held\\n');
        setInterval(() => undefined, 1000);`;
      const child = spawn(process.execPath, ['-e', script, theirs], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise((resolve) => child.stdout.once('data', resolve));
      expect(JournalOwnerLock.takeOver(theirs)).toBeUndefined();
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('exit', resolve));
      const taken = JournalOwnerLock.takeOver(theirs);
      expect(taken).toBeInstanceOf(JournalOwnerLock);
      (taken as JournalOwnerLock).release();
      expect(readdirSync(lockDir)).toEqual([]);
    });
  });
});
