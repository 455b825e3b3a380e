import type Database from 'better-sqlite3';
import { LedgerRow } from './ledger-row';
import { LEDGER_INSERTED_COLUMNS, toColumnValues } from './ledger-row.columns';
import { LEDGER_INBOX_MOVE_ROWS } from './ledger.constants';
import { SqliteRowPath } from './sqlite-row-path';

/**
 * The write path of an in-memory SQLite ledger (a database file uses the
 * journal, journal/sqlite-ledger.journal.ts), and of rows an earlier version
 * left in `ledger_inbox`. A call's row must be committed before its
 * response leaves, and a commit costs what it writes: into `ledger` that is
 * the table, three indexes and the usage summary the triggers update, into
 * `ledger_inbox`, which has no index and no trigger, one page. So rows are
 * committed to the inbox, and moved into `ledger` in large batches, where
 * the per-row cost of the indexes and triggers is lowest.
 *
 * A row in the inbox is as durable as one in `ledger` (same database, same
 * WAL); a process killed before moving it leaves it for the next one that
 * opens the file. Every read of the store moves the inbox first, so the
 * store's queries always see every committed row; other processes sharing
 * the file move it too, each move being one write transaction.
 *
 * better-sqlite3 runs synchronously: nothing interleaves with a statement,
 * and Kysely's own connection (the same database) never sees half a move.
 */
export class SqliteLedgerInbox implements SqliteRowPath {
  private readonly insert: Database.Statement;
  private readonly insertMany: (rows: readonly LedgerRow[]) => void;
  private readonly hasRows: Database.Statement<[], { one: number }>;
  private readonly moveBatch: (limit: number) => number;

  /** The tables must exist (migrations have run). */
  constructor(db: Database.Database) {
    const names = LEDGER_INSERTED_COLUMNS.join(', ');
    const placeholders = LEDGER_INSERTED_COLUMNS.map(() => '?').join(', ');
    this.insert = db.prepare(`insert into ledger_inbox (${names}) values (${placeholders})`);
    this.insertMany = db.transaction((rows: readonly LedgerRow[]) => {
      for (const row of rows) this.insert.run(toColumnValues(row));
    });
    this.hasRows = db.prepare<[], { one: number }>('select 1 as one from ledger_inbox limit 1');
    const lastOfBatch = db.prepare<[number], { last: number | null }>(
      'select max(rowid) as last from (select rowid from ledger_inbox order by rowid limit ?)',
    );
    const copy = db.prepare<[number]>(
      `insert into ledger (${names}) select ${names} from ledger_inbox where rowid <= ? order by rowid`,
    );
    const clear = db.prepare<[number]>('delete from ledger_inbox where rowid <= ?');
    // IMMEDIATE: the write lock first, so two processes moving at once queue instead of deadlocking.
    this.moveBatch = db.transaction((limit: number) => {
      const last = lastOfBatch.get(limit)?.last;
      if (last === null || last === undefined) return 0;
      copy.run(last);
      return clear.run(last).changes;
    }).immediate;
  }

  /** Commits the rows to the inbox: one statement for a lone row, one transaction for several. */
  append(rows: readonly LedgerRow[]): void {
    if (rows.length === 1) this.insert.run(toColumnValues(rows[0]));
    else if (rows.length > 1) this.insertMany(rows);
  }

  get empty(): boolean {
    return this.hasRows.get() === undefined;
  }

  /** Moves up to `limit` of the oldest rows into `ledger`, in their order; returns how many. */
  move(limit: number): number {
    return this.moveBatch(limit);
  }

  moveSome(): boolean {
    return this.move(LEDGER_INBOX_MOVE_ROWS) === LEDGER_INBOX_MOVE_ROWS;
  }

  /** Moves every row, `chunk` rows per transaction; returns how many. */
  moveAll(chunk = LEDGER_INBOX_MOVE_ROWS): number {
    if (this.empty) return 0;
    let moved = 0;
    for (;;) {
      const batch = this.move(chunk);
      moved += batch;
      if (batch < chunk) return moved;
    }
  }

  /** An in-memory database has no file to lose. */
  verify(): void {}

  close(): void {
    this.moveAll();
  }
}
