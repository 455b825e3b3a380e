import { SqliteDatabase } from '../sqlite-driver';
import { rmSync } from 'node:fs';

/**
 * Whether the process that writes a journal is alive, answered by the
 * kernel: the owner holds an exclusive lock on a small SQLite file for as
 * long as it runs, and the kernel drops that lock when the process dies, how
 * ever it dies. Node has no flock(); SQLite's POSIX locks serve the same
 * purpose and also see locks held by other connections of this process.
 */
export class JournalOwnerLock {
  private constructor(
    private readonly path: string,
    private readonly db: SqliteDatabase,
  ) {}

  /** Takes the lock for this process (creating the file); it is held until release(). */
  static hold(path: string): JournalOwnerLock {
    const db = new SqliteDatabase(path);
    try {
      return new JournalOwnerLock(path, lockExclusively(db));
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /**
   * The lock of a process that is gone, now held by the caller (who then
   * cleans up after that process and releases it); undefined while its owner
   * is alive. A missing lock file means the owner is gone too.
   */
  static takeOver(path: string): JournalOwnerLock | 'missing' | undefined {
    let db: SqliteDatabase;
    try {
      db = new SqliteDatabase(path, { fileMustExist: true, timeout: 0 });
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CANTOPEN') return 'missing';
      throw err;
    }
    try {
      return new JournalOwnerLock(path, lockExclusively(db));
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') return undefined;
      throw err;
    }
  }

  /** Removes the lock file, then lets the lock go. */
  release(): void {
    rmSync(this.path, { force: true });
    this.db.close();
  }
}

/** Takes the file's exclusive lock for as long as `db` stays open (throws SQLITE_BUSY if held). */
function lockExclusively(db: SqliteDatabase): SqliteDatabase {
  db.pragma('locking_mode = EXCLUSIVE');
  // Nothing is ever written: no rollback journal file beside the lock.
  db.pragma('journal_mode = MEMORY');
  // A transaction left open is what keeps the exclusive lock.
  db.exec('begin exclusive');
  return db;
}
