import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../errors/gateway.error';
import { LedgerRow } from '../ledger-row';
import { ledgerUnavailable } from '../ledger-unavailable';
import { OpenedFile } from '../opened-file';
import { SqliteRowPath } from '../sqlite-row-path';
import { JournalMoverThread, workerFile } from './journal-mover.thread';
import { JournalSweep } from './journal-sweep';
import { JOURNAL_MOVE_CHUNK_BYTES, JournalMoverLog } from './ledger-journal.mover';
import { LedgerJournalWriter } from './ledger-journal.writer';

/** A journal file this large is complete: appends go on in the next one (it is removed once moved). */
export const JOURNAL_ROTATE_BYTES = 64 * 1024 * 1024;

/** How often the journal and the database file are checked for having been removed or replaced. */
export const LEDGER_FILES_CHECK_MS = 1_000;

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
 *
 * A journal or database file removed or replaced while open still takes
 * writes that no one will ever read. The paths are checked every
 * LEDGER_FILES_CHECK_MS and after every failed append; once one is found
 * changed, the rows of a removed journal are moved in through its open
 * descriptor, and the store refuses every append and read until the gateway
 * restarts: a fresh database would forget the month's spend, so recovering
 * is the operator's decision.
 */
export class SqliteLedgerJournal implements SqliteRowPath {
  private readonly writer: LedgerJournalWriter;
  private readonly mover: JournalMoverThread;
  private local?: JournalSweep;
  private readonly database: OpenedFile;
  private readonly checks: NodeJS.Timeout;
  /** Set once a file was found removed or replaced: every append and read fails with it. */
  fault?: GatewayError;

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
    this.database = OpenedFile.byPath(databasePath);
    this.checks = setInterval(() => this.check(), LEDGER_FILES_CHECK_MS);
    this.checks.unref();
  }

  append(rows: readonly LedgerRow[]): void {
    if (this.fault) throw this.fault;
    try {
      this.writer.append(rows);
    } catch (err) {
      this.check();
      throw this.fault ?? ledgerUnavailable('a journal write failed', err);
    }
  }

  verify(): void {
    this.check();
    if (this.fault) throw this.fault;
  }

  /** The thread moves everything of this owner's in one go: nothing is left for another turn. */
  moveSome(): boolean {
    if (this.fault) return false;
    if (!this.mover.moveOwn(this.writer.seq)) this.onThisThread().moveOwn(this.writer.seq);
    return false;
  }

  moveAll(): Promise<number> {
    if (this.fault) return Promise.reject(this.fault);
    return this.mover
      .moveAll(this.writer.seq)
      .catch(() => this.onThisThread().moveAll(this.writer.seq));
  }

  /**
   * Appends have stopped: moves everything, removes this owner's files, lets
   * the lock go. After a fault nothing is moved: the rows left in the
   * journal wait for the next process.
   */
  async close(): Promise<void> {
    clearInterval(this.checks);
    if (this.fault) {
      await this.mover.stop();
      this.writer.close();
      return;
    }
    try {
      await this.mover
        .finish(this.writer.seq)
        .catch(() => this.onThisThread().finish(this.writer.seq));
    } finally {
      // Whatever was not moved stays in the files; with the lock gone, the next store takes them.
      this.writer.close();
    }
  }

  /** Compares the files with what was opened; the first change found faults the store for good. */
  private check(): void {
    if (this.fault) return;
    const database = this.database.change();
    if (database) {
      this.faulted('database', this.database.path, database);
      return;
    }
    const journal = this.writer.file.change();
    if (journal) {
      this.faulted('journal', this.writer.file.path, journal, this.moveRemovedJournal());
      return;
    }
    const lock = this.writer.lockFile.change();
    if (lock) this.faulted('journal lock', this.writer.lockFile.path, lock);
  }

  private faulted(what: string, path: string, change: string, details = {}): void {
    this.fault = ledgerUnavailable(`the ledger ${what} file was ${change}`);
    clearInterval(this.checks);
    this.log.error({
      msg: `ledger ${what} file ${change}: calls are refused until the gateway restarts`,
      file: path,
      ...details,
    });
  }

  /** Rows appended to the journal after its path was removed, moved in through the open file. */
  private moveRemovedJournal(): Record<string, unknown> {
    try {
      return {
        rowsMoved: this.onThisThread().moveRemoved(this.writer.seq, this.writer.descriptor),
      };
    } catch (err) {
      return { rowsNotMoved: err instanceof Error ? err.message : String(err) };
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
      this.database,
    );
    return this.local;
  }
}
