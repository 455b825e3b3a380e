import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { LedgerRow } from '../ledger-row';
import { SqliteRowPath } from '../sqlite-row-path';
import { JournalMoverThread, workerFile } from './journal-mover.thread';
import { JournalSweep } from './journal-sweep';
import { JOURNAL_MOVE_CHUNK_BYTES, JournalMoverLog } from './ledger-journal.mover';
import { LedgerJournalWriter } from './ledger-journal.writer';

/** A journal file this large is complete: appends go on in the next one (it is removed once moved). */
export const JOURNAL_ROTATE_BYTES = 64 * 1024 * 1024;

export interface JournalOptions {
  rotateBytes?: number;
  chunkBytes?: number;
  /** The mover thread's script (tests point it at a broken one). */
  workerFile?: string;
}

type JournalLog = JournalMoverLog & { error(message: Record<string, unknown>): void };

/**
 * The write path of a SQLite ledger file. A call's row must be committed
 * before its response leaves; committing it to SQLite costs a write
 * transaction per commit (file locks, WAL frames, B-tree pages, the usage
 * triggers), so it is committed to this store's journal instead, one write()
 * per group of rows (ledger-journal.writer.ts), and moved into `ledger` by a
 * worker thread shortly after, or before any read of the store
 * (journal-mover.worker.ts).
 *
 * Several processes may share the database file, each with journals of its
 * own. Any of them moves any journal (each line exactly once), so every read
 * sees every committed row; a journal is removed by its owner once moved, or
 * by whichever process finds its owner gone (journal-sweep.ts), which is how
 * the rows of a killed process reach `ledger`.
 *
 * Should the thread fail, the store moves the rows on its own connection
 * until a new thread runs: slower for the event loop, as correct (any mover
 * moves each line once).
 */
export class SqliteLedgerJournal implements SqliteRowPath {
  private readonly writer: LedgerJournalWriter;
  private readonly mover: JournalMoverThread;
  private local?: JournalSweep;

  constructor(
    private readonly db: Database.Database,
    databasePath: string,
    private readonly dir: string,
    private readonly log: JournalLog,
    private readonly options: JournalOptions = {},
  ) {
    this.writer = new LedgerJournalWriter(
      dir,
      randomUUID(),
      options.rotateBytes ?? JOURNAL_ROTATE_BYTES,
    );
    this.mover = new JournalMoverThread(
      { databasePath, dir, owner: this.writer.owner, chunkBytes: this.chunkBytes },
      log,
      options.workerFile ?? workerFile(),
    );
  }

  append(rows: readonly LedgerRow[]): void {
    this.writer.append(rows);
  }

  /** The thread moves everything of this owner's in one go: nothing is left for another turn. */
  moveSome(): boolean {
    if (!this.mover.moveOwn(this.writer.seq)) this.onThisThread().moveOwn(this.writer.seq);
    return false;
  }

  moveAll(): Promise<number> {
    return this.mover
      .moveAll(this.writer.seq)
      .catch(() => this.onThisThread().moveAll(this.writer.seq));
  }

  /** Appends have stopped: moves everything, removes this owner's files, lets the lock go. */
  async close(): Promise<void> {
    try {
      await this.mover
        .finish(this.writer.seq)
        .catch(() => this.onThisThread().finish(this.writer.seq));
    } finally {
      // Whatever was not moved stays in the files; with the lock gone, the next store takes them.
      this.writer.close();
    }
  }

  private get chunkBytes(): number {
    return this.options.chunkBytes ?? JOURNAL_MOVE_CHUNK_BYTES;
  }

  /** The rows moved on the store's own connection, while no mover thread runs. */
  private onThisThread(): JournalSweep {
    this.local ??= new JournalSweep(
      this.db,
      this.dir,
      this.writer.owner,
      this.log,
      this.chunkBytes,
    );
    return this.local;
  }
}
