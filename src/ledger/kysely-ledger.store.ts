import type Database from 'better-sqlite3';
import { Logger } from '@nestjs/common';
import { Kysely, Migrator, sql } from 'kysely';
import { resolve } from 'node:path';
import { setTimeout as delay, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { GatewayError } from '../errors/gateway.error';
import { LedgerRow, StoredLedgerRow } from './ledger-row';
import { fromColumns, toColumns } from './ledger-row.columns';
import { ClientUsage, LedgerQuery, LedgerStore } from './ledger-store';
import { LedgerConnection } from './ledger-connection';
import { LEDGER_MOVE_DELAY_MS, LEDGER_PRUNE_CHUNK_ROWS } from './ledger.constants';
import { createLedgerDialect } from './ledger.dialect';
import { LedgerMigrationProvider } from './ledger.migrations';
import { ledgerPageQuery } from './ledger-page.query';
import { LedgerDatabase } from './ledger.schema';
import { querySpendSince } from './ledger-spend.query';
import { queryUsage } from './ledger-usage.query';
import { SqliteLedgerInbox } from './sqlite-ledger-inbox';
import { SqliteRowPath } from './sqlite-row-path';
import { journalDirFor } from './journal/journal-files';
import { JournalOptions, SqliteLedgerJournal } from './journal/sqlite-ledger.journal';

const MIGRATION_ATTEMPTS = 5;

/**
 * The ledger over Kysely: one query layer for SQLite (embedded) and
 * PostgreSQL (scale-out). Rows reach `ledger` in transactions that also carry
 * what its triggers add to the usage summary usage() and spendSince() read.
 * On PostgreSQL each append is one multi-row INSERT into `ledger`. On SQLite
 * appends skip Kysely: rows are committed to a journal file (an in-memory
 * database: to `ledger_inbox`) and moved into `ledger` shortly after, or
 * before any read (journal/sqlite-ledger.journal.ts, sqlite-ledger-inbox.ts).
 */
export class KyselyLedgerStore implements LedgerStore {
  private readonly db: Kysely<LedgerDatabase>;
  private readonly logger = new Logger('LedgerStore');
  private sqlite?: Database.Database;
  private rowPath?: SqliteRowPath;
  private moveTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly connection: LedgerConnection,
    private readonly journalOptions: JournalOptions = {},
  ) {
    this.db = new Kysely<LedgerDatabase>({
      dialect: createLedgerDialect(connection, (db) => (this.sqlite = db)),
    });
  }

  get driver(): LedgerConnection['driver'] {
    return this.connection.driver;
  }

  async init(): Promise<void> {
    const migrator = new Migrator({
      db: this.db,
      provider: new LedgerMigrationProvider(this.connection.driver),
      // Kysely looks for its bookkeeping tables in every schema unless told which one is ours.
      migrationTableSchema: await this.currentSchema(),
    });
    for (let attempt = 1; ; attempt++) {
      const { error } = await migrator.migrateToLatest();
      if (error === undefined) {
        // Kysely opened the SQLite database for the migrations; the tables now exist.
        if (this.sqlite) await this.openRowPath(this.sqlite);
        return;
      }
      // Processes sharing one SQLite file migrate one at a time (SqliteLedgerDialect); one
      // that waited longer than busy_timeout (a large ledger being migrated) tries again.
      if (attempt < MIGRATION_ATTEMPTS && isSqliteBusy(error)) {
        await delay(50 * attempt);
        continue;
      }
      throw new Error(`ledger migration failed: ${messageOf(error)}`, { cause: error });
    }
  }

  async append(rows: readonly LedgerRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.rowPath) {
      if (this.closed) throw new Error('ledger store is closed');
      this.rowPath.append(rows);
      this.scheduleMove(LEDGER_MOVE_DELAY_MS);
      return;
    }
    await this.db.insertInto('ledger').values(rows.map(toColumns)).execute();
  }

  async query(query: LedgerQuery): Promise<StoredLedgerRow[]> {
    await this.moveAll();
    const rows = await ledgerPageQuery(this.db, query).execute();
    return rows.map(fromColumns);
  }

  async spendSince(clientId: string, from: number): Promise<number> {
    await this.moveAll();
    return querySpendSince(this.db, clientId, from);
  }

  async usage(now: number, clientId?: string): Promise<ClientUsage[]> {
    await this.moveAll();
    return queryUsage(this.db, this.connection.driver, now, clientId);
  }

  /**
   * Deletes in chunks of LEDGER_PRUNE_CHUNK_ROWS, each its own transaction, so
   * that calls and their appends get in between instead of waiting for the
   * whole prune (on SQLite the process itself, on PostgreSQL the summary rows
   * a chunk locks). The triggers take each chunk out of the usage summary.
   */
  async prune(before: number): Promise<number> {
    await this.moveAll();
    let deleted = 0;
    for (;;) {
      const result = await this.db
        .deleteFrom('ledger')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('ledger')
            .select('id')
            .where('time', '<', before)
            .limit(LEDGER_PRUNE_CHUNK_ROWS),
        )
        .executeTakeFirst();
      const chunk = Number(result.numDeletedRows);
      deleted += chunk;
      if (chunk < LEDGER_PRUNE_CHUNK_ROWS) break;
      // better-sqlite3 blocks the event loop while it deletes: let calls and I/O run in between.
      await yieldToEventLoop();
    }
    // Summary rows whose every call was pruned stay at zero (usage skips them); drop them.
    await this.db.deleteFrom('ledger_usage').where('calls', '<=', 0).execute();
    await this.db.deleteFrom('ledger_daily_calls').where('calls', '<=', 0).execute();
    return deleted;
  }

  fault(): GatewayError | undefined {
    return this.rowPath?.fault;
  }

  /** Also fails once a SQLite file the store writes to was removed or replaced. */
  async ping(): Promise<void> {
    this.rowPath?.verify();
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.moveTimer);
    this.closed = true;
    try {
      await this.rowPath?.close();
    } catch (err) {
      // The rows stay committed (journal or inbox); the next process to open the file moves them.
      this.logger.warn({ msg: 'ledger rows not moved at close', error: messageOf(err) });
    }
    await this.db.destroy();
  }

  /**
   * Also moves what processes killed before their move left behind: their
   * journals, and rows an earlier version committed to `ledger_inbox`.
   */
  private async openRowPath(db: Database.Database): Promise<void> {
    const inbox = new SqliteLedgerInbox(db);
    const path = this.connection.driver === 'sqlite' ? this.connection.path : ':memory:';
    if (path === ':memory:') {
      this.rowPath = inbox;
    } else {
      const log = {
        warn: (message: Record<string, unknown>) => this.logger.warn(message),
        error: (message: Record<string, unknown>) => this.logger.error(message),
      };
      const file = resolve(path);
      const dir = journalDirFor(file);
      this.rowPath = new SqliteLedgerJournal(db, file, dir, log, this.journalOptions);
    }
    const moved = inbox.moveAll() + (await this.moveAll());
    if (moved > 0)
      this.logger.log({ msg: 'ledger rows left by earlier processes moved in', moved });
  }

  /** Every committed row (this process's and any other's) into `ledger`, now. */
  private moveAll(): number | Promise<number> {
    if (!this.rowPath) return 0;
    clearTimeout(this.moveTimer);
    this.moveTimer = undefined;
    return this.rowPath.moveAll();
  }

  /** One move after `delayMs` (the row path bounds it); more follow while rows remain. */
  private scheduleMove(delayMs: number): void {
    if (this.moveTimer || this.closed) return;
    this.moveTimer = setTimeout(() => {
      this.moveTimer = undefined;
      if (this.closed || !this.rowPath) return;
      try {
        if (this.rowPath.moveSome()) this.scheduleMove(0);
      } catch (err) {
        // Nothing is lost (the rows stay committed); try again later, reads move them too.
        this.logger.warn({ msg: 'ledger move failed', error: messageOf(err) });
        this.scheduleMove(LEDGER_MOVE_DELAY_MS * 50);
      }
    }, delayMs);
    // Never what keeps the process alive: close() moves whatever is left.
    this.moveTimer.unref();
  }

  private async currentSchema(): Promise<string | undefined> {
    if (this.connection.driver !== 'postgres') return undefined;
    const { rows } = await sql<{
      schema: string | null;
    }>`select current_schema() as schema`.execute(this.db);
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('ledger: the PostgreSQL search_path names no existing schema');
    return schema;
  }
}

function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_BUSY');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
