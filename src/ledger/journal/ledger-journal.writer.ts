import { closeSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerRow } from '../ledger-row';
import { OpenedFile } from '../opened-file';
import { journalName, lockPath } from './journal-files';
import { formatJournalLine } from './journal-line';
import { JournalOwnerLock } from './journal-owner.lock';

/**
 * This store's journal: each append is one write() of one line
 * (journal-line.ts) to a file opened for appending. Once write() returns,
 * the rows are in the kernel's page cache: they survive the process being
 * killed, as a commit to SQLite's WAL with `synchronous = NORMAL` does, for
 * one system call and none of SQLite's locking and page work
 * (docs/performance.md).
 *
 * A write that fails (a full disk) may leave part of its line behind, and
 * that part has no newline: the file is cut back to the end of the last
 * whole append before anything else is written, so no later line is ever
 * glued to a fragment. Until the cut succeeds, every append fails.
 */
export class LedgerJournalWriter {
  private fd: number;
  private currentFile: OpenedFile;
  /** Bytes of the current file that are whole appends. */
  private end = 0;
  /** An append failed: the file may hold bytes past `end`. */
  private torn = false;
  private currentSeq = 1;
  private readonly lock: JournalOwnerLock;
  readonly lockFile: OpenedFile;

  constructor(
    private readonly dir: string,
    readonly owner: string,
    private readonly rotateBytes: number,
  ) {
    mkdirSync(dir, { recursive: true });
    // The lock first: a journal without a live lock may be taken over by another process.
    this.lock = JournalOwnerLock.hold(lockPath(dir, owner));
    this.lockFile = OpenedFile.byPath(lockPath(dir, owner));
    this.fd = this.open();
    this.currentFile = OpenedFile.byDescriptor(this.path(this.currentSeq), this.fd);
  }

  /** The file appends go to now; files of this owner with a lower sequence are complete. */
  get seq(): number {
    return this.currentSeq;
  }

  get name(): string {
    return journalName(this.owner, this.currentSeq);
  }

  /** The file appends go to, as opened (it may since have been removed from its path). */
  get file(): OpenedFile {
    return this.currentFile;
  }

  /** The open descriptor of the current file, which still reads it after its path is gone. */
  get descriptor(): number {
    return this.fd;
  }

  append(rows: readonly LedgerRow[]): void {
    this.repair();
    const bytes = Buffer.from(formatJournalLine(rows), 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.fd, bytes, done);
    } catch (err) {
      // Whatever part of the line reached the file (all but its newline, some, none) is cut next.
      this.torn = true;
      throw err;
    }
    this.end += bytes.length;
    if (this.end >= this.rotateBytes) this.rotate();
  }

  /** Closes the file and lets the lock go; the caller has moved the rows and removed the files. */
  close(): void {
    closeSync(this.fd);
    this.lock.release();
  }

  /** Cuts what a failed append left; throws (and the append fails) if the cut fails. */
  private repair(): void {
    if (!this.torn) return;
    ftruncateSync(this.fd, this.end);
    this.torn = false;
  }

  /** Starts the next file; if it cannot be opened now, appends stay on this one and try again. */
  private rotate(): void {
    let next: number;
    try {
      next = this.open(this.currentSeq + 1);
    } catch {
      return;
    }
    const file = OpenedFile.byDescriptor(this.path(this.currentSeq + 1), next);
    closeSync(this.fd);
    this.fd = next;
    this.currentFile = file;
    this.currentSeq += 1;
    this.end = 0;
  }

  /** Readable too: the rows of a file removed while open are read back through its descriptor. */
  private open(seq = this.currentSeq): number {
    return openSync(this.path(seq), 'a+');
  }

  private path(seq: number): string {
    return join(this.dir, journalName(this.owner, seq));
  }
}
