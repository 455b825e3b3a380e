import type Database from 'better-sqlite3';
import { OpenedFile } from '../opened-file';
import { journalName, JournalFile, listJournals, lockPath } from './journal-files';
import { JournalOwnerLock } from './journal-owner.lock';
import { JournalMoverLog, LedgerJournalMover } from './ledger-journal.mover';

/**
 * Which journal files to move, and when one may be removed: an owner's
 * complete files (appends went on in a later one) by the owner once moved,
 * all of them when the owner closes, and all of a gone owner's files by
 * whoever finds its lock free. `seq` is the file the owner appends to now.
 * A file is removed only while `database` is still the file at its path:
 * rows moved into a database removed or replaced meanwhile are kept.
 */
export class JournalSweep {
  private readonly mover: LedgerJournalMover;
  /** The owner's files below this sequence are moved and removed. */
  private firstSeq = 1;

  constructor(
    db: Database.Database,
    private readonly dir: string,
    private readonly owner: string,
    log: JournalMoverLog,
    chunkBytes: number,
    private readonly database: OpenedFile,
  ) {
    this.mover = new LedgerJournalMover(db, log, chunkBytes);
  }

  /** The owner's rows; returns how many were moved. */
  moveOwn(seq: number): number {
    let rows = 0;
    for (; this.firstSeq <= seq; this.firstSeq++) {
      const name = journalName(this.owner, this.firstSeq);
      const moved = this.mover.moveFile(this.dir, name);
      rows += moved.rows;
      if (this.firstSeq === seq) break;
      this.remove(name, moved.leftBytes);
    }
    return rows;
  }

  /** The owner's current file, read through `fd` because its path is gone; returns how many rows. */
  moveRemoved(seq: number, fd: number): number {
    return this.mover.moveFile(this.dir, journalName(this.owner, seq), fd).rows;
  }

  /** Every journal in the directory, the owner's and any other's; returns how many rows. */
  moveAll(seq: number): number {
    const foreign = new Map<string, JournalFile[]>();
    for (const file of listJournals(this.dir)) {
      if (file.owner === this.owner) continue;
      foreign.set(file.owner, [...(foreign.get(file.owner) ?? []), file]);
    }
    let rows = 0;
    for (const [owner, files] of foreign) rows += this.moveForeign(owner, files);
    return rows + this.moveOwn(seq);
  }

  /** The owner appends no more: moves everything and removes the owner's last file too. */
  finish(seq: number): number {
    const rows = this.moveAll(seq);
    const name = journalName(this.owner, seq);
    this.remove(name, this.mover.moveFile(this.dir, name).leftBytes);
    return rows;
  }

  /** Another owner's files: moved; removed too if their owner is gone. */
  private moveForeign(owner: string, files: JournalFile[]): number {
    let rows = 0;
    for (const file of files) rows += this.mover.moveFile(this.dir, file.name).rows;
    const lock = JournalOwnerLock.takeOver(lockPath(this.dir, owner));
    if (lock === undefined) return rows;
    try {
      // Gone: nothing more can be appended. Move what arrived since, then remove the files.
      for (const file of files) {
        const moved = this.mover.moveFile(this.dir, file.name);
        rows += moved.rows;
        this.remove(file.name, moved.leftBytes);
      }
    } finally {
      if (lock !== 'missing') lock.release();
    }
    return rows;
  }

  private remove(name: string, leftBytes: number): void {
    const change = this.database.change();
    if (change) throw new Error(`the ledger database file was ${change}: ${name} kept`);
    this.mover.remove(this.dir, name, leftBytes);
  }
}
