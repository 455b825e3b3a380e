import { randomUUID } from 'node:crypto';
import { LedgerRow } from '../ledger-row';
import { SqliteRowPath } from '../sqlite-row-path';
import { JournalMoverThread } from './journal-mover.thread';
import { JOURNAL_MOVE_CHUNK_BYTES, JournalMoverLog } from './ledger-journal.mover';
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
 * per group of rows (ledger-journal.writer.ts), and moved into `ledger` by a
 * worker thread shortly after, or before any read of the store
 * (journal-mover.worker.ts).
 *
 * Several processes may share the database file, each with journals of its
 * own. Any of them moves any journal (each line exactly once), so every read
 * sees every committed row; a journal is removed by its owner once moved, or
 * by whichever process finds its owner gone (journal-sweep.ts), which is how
 * the rows of a killed process reach `ledger`.
 */
export class SqliteLedgerJournal implements SqliteRowPath {
  private readonly writer: LedgerJournalWriter;
  private readonly mover: JournalMoverThread;

  constructor(
    databasePath: string,
    dir: string,
    log: JournalMoverLog & { error(message: Record<string, unknown>): void },
    options: JournalOptions = {},
  ) {
    this.writer = new LedgerJournalWriter(
      dir,
      randomUUID(),
      options.rotateBytes ?? JOURNAL_ROTATE_BYTES,
    );
    const chunkBytes = options.chunkBytes ?? JOURNAL_MOVE_CHUNK_BYTES;
    this.mover = new JournalMoverThread(
      { databasePath, dir, owner: this.writer.owner, chunkBytes },
      log,
    );
  }

  append(rows: readonly LedgerRow[]): void {
    this.writer.append(rows);
  }

  /** The thread moves everything of this owner's in one go: nothing is left for another turn. */
  moveSome(): boolean {
    this.mover.moveOwn(this.writer.seq);
    return false;
  }

  moveAll(): Promise<number> {
    return this.mover.moveAll(this.writer.seq);
  }

  /** Appends have stopped: moves everything, removes this owner's files, lets the lock go. */
  async close(): Promise<void> {
    try {
      await this.mover.finish(this.writer.seq);
    } finally {
      // Whatever was not moved stays in the files; with the lock gone, the next store takes them.
      this.writer.close();
    }
  }
}
