import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { LedgerRow } from '../ledger-row';
import { SqliteRowPath } from '../sqlite-row-path';
import { journalName, JournalFile, listJournals, lockPath } from './journal-files';
import { JournalOwnerLock } from './journal-owner.lock';
import {
  JOURNAL_MOVE_CHUNK_BYTES,
  JournalMoverLog,
  LedgerJournalMover,
} from './ledger-journal.mover';
import { LedgerJournalWriter } from './ledger-journal.writer';

/** A journal file this large is complete: appends go on in the next one (it is removed once moved). */
export const JOURNAL_ROTATE_BYTES = 64 * 1024 * 1024;

export interface JournalOptions {
  rotateBytes?: number;
  chunkBytes?: number;
}

/**
 * The write path of a SQLite ledger file. A call's row must be committed
 * before its response leaves; committing it to SQLite costs a write
 * transaction per commit (file locks, WAL frames, B-tree pages, the usage
 * triggers), so it is committed to this store's journal instead, one write()
 * per group of rows (ledger-journal.writer.ts), and moved into `ledger` in
 * large transactions shortly after, or before any read of the store
 * (ledger-journal.mover.ts).
 *
 * Several processes may share the database file, each with journals of its
 * own. Any of them moves any journal (each line exactly once), so every read
 * sees every committed row; a journal is removed by its owner once moved, or
 * by whichever process finds its owner gone (journal-owner.lock.ts), which is
 * how the rows of a killed process reach `ledger`.
 */
export class SqliteLedgerJournal implements SqliteRowPath {
  private readonly writer: LedgerJournalWriter;
  private readonly mover: LedgerJournalMover;
  /** This owner's files below this sequence are moved and removed. */
  private firstSeq = 1;

  constructor(
    db: Database.Database,
    private readonly dir: string,
    log: JournalMoverLog,
    options: JournalOptions = {},
  ) {
    this.mover = new LedgerJournalMover(db, log, options.chunkBytes ?? JOURNAL_MOVE_CHUNK_BYTES);
    this.writer = new LedgerJournalWriter(
      dir,
      randomUUID(),
      options.rotateBytes ?? JOURNAL_ROTATE_BYTES,
    );
  }

  append(rows: readonly LedgerRow[]): void {
    this.writer.append(rows);
  }

  moveSome(): boolean {
    const name = journalName(this.writer.owner, this.firstSeq);
    const chunk = this.mover.moveChunk(this.dir, name);
    if (chunk.more) return true;
    if (this.firstSeq === this.writer.seq) return false;
    // A complete file (appends went on in the next one), now moved.
    this.mover.remove(this.dir, name, chunk.leftBytes);
    this.firstSeq += 1;
    return true;
  }

  moveAll(): number {
    let rows = 0;
    const foreign = new Map<string, JournalFile[]>();
    for (const file of listJournals(this.dir)) {
      if (file.owner === this.writer.owner) continue;
      foreign.set(file.owner, [...(foreign.get(file.owner) ?? []), file]);
    }
    for (const [owner, files] of foreign) rows += this.moveForeign(owner, files);
    for (let seq = this.firstSeq; seq <= this.writer.seq; seq++) {
      const name = journalName(this.writer.owner, seq);
      const moved = this.mover.moveFile(this.dir, name);
      rows += moved.rows;
      if (seq < this.writer.seq) {
        this.mover.remove(this.dir, name, moved.leftBytes);
        this.firstSeq = seq + 1;
      }
    }
    return rows;
  }

  /** Appends have stopped: moves this owner's files, removes them, lets the lock go. */
  close(): void {
    try {
      this.moveAll();
      const name = journalName(this.writer.owner, this.writer.seq);
      this.mover.remove(this.dir, name, this.mover.moveFile(this.dir, name).leftBytes);
    } finally {
      // Whatever was not moved stays in the files; with the lock gone, the next store takes them.
      this.writer.close();
    }
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
        this.mover.remove(this.dir, file.name, moved.leftBytes);
      }
    } finally {
      if (lock !== 'missing') lock.release();
    }
    return rows;
  }
}
