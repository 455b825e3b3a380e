import type Database from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct statements kept prepared (a group commit's INSERT differs by its row count). */
export const SQLITE_STATEMENT_CACHE_SIZE = 64;

/**
 * Kysely prepares every query anew, and preparing the ledger's INSERT (with
 * the summary triggers it fires) costs more than running it
 * (docs/performance.md). This keeps the most recently used statements
 * prepared, keyed by their SQL. A statement still being iterated is never
 * handed out twice.
 */
export function cachingStatements(
  db: Database.Database,
  size = SQLITE_STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare: (sql: string) => {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        // Map order is use order: move it to the newest end.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = db.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
