import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerRow } from '../ledger-row';
import { toColumnValues } from '../ledger-row.columns';
import { journalName, lockPath } from './journal-files';
import { JournalOwnerLock } from './journal-owner.lock';

/**
 * This store's journal: each append is one write() of one JSON line per row
 * (the row's column values in LEDGER_INSERTED_COLUMNS order) to a file opened
 * for appending. Once write() returns, the rows are in the kernel's page
 * cache: they survive the process being killed, as a commit to SQLite's WAL
 * with `synchronous = NORMAL` does, for one system call instead of SQLite's
 * eight (locks, frame header, page, unlocks) and none of its page work.
 */
export class LedgerJournalWriter {
  private fd: number;
  private written = 0;
  private currentSeq = 1;
  /** A write failed part way: the next append starts on a new line. */
  private torn = false;
  private readonly lock: JournalOwnerLock;

  constructor(
    private readonly dir: string,
    readonly owner: string,
    private readonly rotateBytes: number,
  ) {
    mkdirSync(dir, { recursive: true });
    // The lock first: a journal without a live lock may be taken over by another process.
    this.lock = JournalOwnerLock.hold(lockPath(dir, owner));
    this.fd = this.open();
  }

  /** The file appends go to now; files of this owner with a lower sequence are complete. */
  get seq(): number {
    return this.currentSeq;
  }

  append(rows: readonly LedgerRow[]): void {
    let text = this.torn ? '\n' : '';
    for (const row of rows) text += `${JSON.stringify(toColumnValues(row))}\n`;
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.fd, bytes, done);
    } catch (err) {
      this.torn = done > 0;
      throw err;
    }
    this.torn = false;
    this.written += bytes.length;
    if (this.written >= this.rotateBytes) this.rotate();
  }

  /** Closes the file and lets the lock go; the caller has moved the rows and removed the files. */
  close(): void {
    closeSync(this.fd);
    this.lock.release();
  }

  /** Starts the next file; if it cannot be opened now, appends stay on this one and try again. */
  private rotate(): void {
    let next: number;
    try {
      next = this.open(this.currentSeq + 1);
    } catch {
      return;
    }
    closeSync(this.fd);
    this.fd = next;
    this.currentSeq += 1;
    this.written = 0;
  }

  private open(seq = this.currentSeq): number {
    return openSync(join(this.dir, journalName(this.owner, seq)), 'a');
  }
}
