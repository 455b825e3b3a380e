import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LEDGER_INSERTED_COLUMNS } from '../ledger-row.columns';
import { parseJournalLine } from './journal-line';

/**
 * Most bytes one move transaction reads from a journal (about 800 rows,
 * a few ms holding the database's write lock); the rest follow.
 */
export const JOURNAL_MOVE_CHUNK_BYTES = 256 * 1024;

const NEWLINE = 0x0a;

/**
 * Rows per insert statement: a statement's own cost (binding, stepping,
 * resetting, the call into the driver) is shared by this many rows
 * (docs/performance.md), and 32 rows stay far below SQLite's limit on bound
 * values.
 */
export const JOURNAL_ROWS_PER_INSERT = 32;

export interface JournalMoverLog {
  warn(message: Record<string, unknown>): void;
}

/**
 * Moves journal lines into `ledger`. Each move is one write transaction that
 * reads how far the file was moved (`ledger_journal_progress`), inserts the
 * complete lines after that point and records the new point: any number of
 * processes may move the same file, every line reaches `ledger` exactly once
 * and in file order. A line still being written (no newline yet) waits for
 * the next move.
 */
export class LedgerJournalMover {
  private buffer: Buffer;
  private readonly movedBytes: Database.Statement<[string], { moved: number }>;
  private readonly saveMoved: Database.Statement<[string, number]>;
  private readonly forgetMoved: Database.Statement<[string]>;
  private readonly insert: Database.Statement<unknown[]>;
  private readonly insertGroup: Database.Statement<unknown[]>;
  private readonly moveChunkLocked: (dir: string, name: string, fd?: number) => ChunkMoved;

  constructor(
    db: Database.Database,
    private readonly log: JournalMoverLog,
    private readonly chunkBytes = JOURNAL_MOVE_CHUNK_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
    this.movedBytes = db.prepare(
      'select moved_bytes as moved from ledger_journal_progress where file = ?',
    );
    this.saveMoved = db.prepare(
      `insert into ledger_journal_progress (file, moved_bytes) values (?, ?)
       on conflict (file) do update set moved_bytes = excluded.moved_bytes`,
    );
    this.forgetMoved = db.prepare('delete from ledger_journal_progress where file = ?');
    const names = LEDGER_INSERTED_COLUMNS.join(', ');
    const placeholders = LEDGER_INSERTED_COLUMNS.map(() => '?').join(', ');
    const insert = (rows: number) =>
      db.prepare<unknown[]>(
        `insert into ledger (${names}) values ${Array<string>(rows).fill(`(${placeholders})`).join(', ')}`,
      );
    this.insert = insert(1);
    this.insertGroup = insert(JOURNAL_ROWS_PER_INSERT);
    // IMMEDIATE: the write lock before the progress is read, so two movers of one file take turns.
    this.moveChunkLocked = db.transaction((dir: string, name: string, fd?: number) =>
      this.moveLocked(dir, name, fd),
    ).immediate;
  }

  /**
   * Moves every complete line of the file not moved yet, chunk by chunk;
   * read through `fd` when given (a file removed from the directory while
   * its writer still holds it open).
   */
  moveFile(dir: string, name: string, fd?: number): FileMoved {
    let rows = 0;
    for (;;) {
      const chunk = this.moveChunkLocked(dir, name, fd);
      rows += chunk.rows;
      if (!chunk.more) return { rows, leftBytes: chunk.leftBytes };
    }
  }

  /**
   * Removes a file no one appends to any more, then forgets its progress
   * (in that order: a progress row without its file is harmless, a file
   * without its progress would be moved again). Bytes after its last newline
   * (a write cut short) are reported, not moved.
   */
  remove(dir: string, name: string, leftBytes: number): void {
    if (leftBytes > 0) {
      this.log.warn({
        msg: 'ledger journal ends in an incomplete line, dropped',
        file: name,
        bytes: leftBytes,
      });
    }
    rmSync(join(dir, name), { force: true });
    this.forgetMoved.run(name);
  }

  private moveLocked(dir: string, name: string, given?: number): ChunkMoved {
    const moved = this.movedBytes.get(name)?.moved ?? 0;
    let fd: number;
    try {
      fd = given ?? openSync(join(dir, name), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return NOTHING;
      throw err;
    }
    try {
      for (;;) {
        const read = readSync(fd, this.buffer, 0, this.buffer.length, moved);
        if (read === 0) return NOTHING;
        const end = this.buffer.lastIndexOf(NEWLINE, read - 1);
        if (end < 0) {
          // One line longer than the buffer: grow it and read again.
          if (read === this.buffer.length) {
            this.buffer = Buffer.allocUnsafe(this.buffer.length * 2);
            continue;
          }
          return { rows: 0, more: false, leftBytes: read };
        }
        const rows = this.insertLines(name, moved, this.buffer.toString('utf8', 0, end));
        this.saveMoved.run(name, moved + end + 1);
        const full = read === this.buffer.length;
        // A buffer grown for one long line goes back to the chunk size: moves stay that short.
        if (this.buffer.length > this.chunkBytes) this.buffer = Buffer.allocUnsafe(this.chunkBytes);
        return { rows, more: full, leftBytes: full ? 0 : read - end - 1 };
      }
    } finally {
      if (given === undefined) closeSync(fd);
    }
  }

  private insertLines(name: string, from: number, text: string): number {
    const rows: unknown[][] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const values = parseJournalLine(line);
      if (values) rows.push(...values);
      else this.skipped(name, from, line);
    }
    let inserted = 0;
    let next = 0;
    for (; next + JOURNAL_ROWS_PER_INSERT <= rows.length; next += JOURNAL_ROWS_PER_INSERT) {
      inserted += this.insertedGroup(name, from, rows, next);
    }
    return inserted + this.insertedOneByOne(name, from, rows, next, rows.length);
  }

  /**
   * JOURNAL_ROWS_PER_INSERT rows from `first` in one statement. Should the
   * table refuse one of them, the statement inserts none (SQLite undoes a
   * failed statement, not the transaction) and the rows go one by one, so
   * that only the refused row is skipped.
   */
  private insertedGroup(name: string, from: number, rows: unknown[][], first: number): number {
    const end = first + JOURNAL_ROWS_PER_INSERT;
    try {
      this.insertGroup.run(rows.slice(first, end).flat());
      return JOURNAL_ROWS_PER_INSERT;
    } catch (err) {
      if (!refused(err)) throw err;
    }
    return this.insertedOneByOne(name, from, rows, first, end);
  }

  /** Rows `first` to `end` (excluded), a statement each: a refused row is skipped, and said so. */
  private insertedOneByOne(
    name: string,
    from: number,
    rows: unknown[][],
    first: number,
    end: number,
  ): number {
    let inserted = 0;
    for (let i = first; i < end; i++) {
      if (this.inserted(rows[i])) inserted += 1;
      else this.skipped(name, from, JSON.stringify(rows[i]));
    }
    return inserted;
  }

  /**
   * Neither a write cut short (its fragment is cut before the next append)
   * nor a process killed mid-write (its fragment has no newline) leaves such
   * a line; should one be there anyway, a line that can never be inserted
   * must not stop the ones after it.
   */
  private skipped(name: string, from: number, line: string): void {
    this.log.warn({
      msg: 'ledger journal line unreadable, skipped',
      file: name,
      near: from,
      line: line.slice(0, 200),
    });
  }

  /** False for values the table refuses (a constraint); any other failure ends the move. */
  private inserted(values: unknown[]): boolean {
    try {
      this.insert.run(values);
      return true;
    } catch (err) {
      if (refused(err)) return false;
      throw err;
    }
  }
}

/** The table refused the values (a constraint), as opposed to the database failing. */
function refused(err: unknown): boolean {
  return String((err as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT');
}

interface ChunkMoved {
  rows: number;
  more: boolean;
  /** Bytes after the last newline: a line not finished (yet). */
  leftBytes: number;
}

export interface FileMoved {
  rows: number;
  leftBytes: number;
}

const NOTHING: ChunkMoved = { rows: 0, more: false, leftBytes: 0 };
