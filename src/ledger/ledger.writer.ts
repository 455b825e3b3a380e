import { Logger } from '@nestjs/common';
import { GatewayError } from '../errors/gateway.error';
import { LedgerRow } from './ledger-row';
import { LedgerStore } from './ledger-store';
import { ledgerUnavailable } from './ledger-unavailable';
import { LEDGER_MAX_BATCH_ROWS } from './ledger.constants';

interface PendingRow {
  row: LedgerRow;
  resolve(): void;
  reject(err: unknown): void;
}

/** The commit failure no commit has followed yet. */
export interface LedgerCommitFailure {
  /** Client-safe: no paths, no SQL. */
  reason: string;
  /** Epoch ms of the latest failed commit. */
  at: number;
}

export interface LedgerWriterStats {
  /** Commits attempted (each one multi-row INSERT, one transaction). */
  batches: number;
  /** Rows committed. */
  rows: number;
  /** Rows whose commit failed (each caller saw the rejection). */
  failedRows: number;
}

/**
 * Group commit. `record()` resolves once the row's commit is durable. Rows
 * queued in the same turn of the event loop share one commit; one commit
 * runs at a time, and the rows that arrive while it runs share the next. A
 * lone row waits for no timer: the flush starts on the next turn
 * (setImmediate), which only gathers what is already queued.
 * Provided by a factory in LedgerModule (the batch size is not injectable).
 *
 * A failed commit rejects its rows with a retryable ledger_unavailable
 * error; a run of failures (a full disk) is logged once when it starts and
 * once when commits succeed again.
 */
export class LedgerWriter {
  readonly stats: LedgerWriterStats = { batches: 0, rows: 0, failedRows: 0 };
  private queue: PendingRow[] = [];
  /** Rows of the commit under way. */
  private committing = 0;
  private flushing?: Promise<void>;
  private readonly logger = new Logger('LedgerWriter');
  /** Rows refused since commits began failing; 0 while they succeed. */
  private failingRows = 0;
  private lastFailure?: LedgerCommitFailure;

  constructor(
    private readonly store: LedgerStore,
    private readonly maxBatchRows: number = LEDGER_MAX_BATCH_ROWS,
  ) {}

  /** True from a failed commit until one succeeds (read by the ledger_unwritable alert). */
  get failing(): boolean {
    return this.failingRows > 0;
  }

  /** The latest failed commit while no commit has succeeded since, else undefined (read by readiness). */
  get failure(): LedgerCommitFailure | undefined {
    return this.failingRows > 0 ? this.lastFailure : undefined;
  }

  record(row: LedgerRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /**
   * Rows handed to record() whose commit has not settled: queued, or in the
   * commit under way. A committed row survives the process being killed
   * (PostgreSQL: its INSERT; SQLite: its line in the journal, or its inbox row).
   */
  get backlog(): number {
    return this.queue.length + this.committing;
  }

  /** Resolves when every row recorded so far has been committed or rejected. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (;;) {
      const batch = this.queue.splice(0, this.maxBatchRows);
      if (batch.length === 0) {
        // Cleared in the same synchronous step that saw the queue empty, so no row is stranded.
        this.flushing = undefined;
        return;
      }
      await this.commit(batch);
    }
  }

  private async commit(batch: PendingRow[]): Promise<void> {
    this.stats.batches++;
    this.committing = batch.length;
    try {
      await this.store.append(batch.map((pending) => pending.row));
    } catch (err) {
      this.stats.failedRows += batch.length;
      const error = err instanceof GatewayError ? err : ledgerUnavailable('a commit failed', err);
      if (this.failingRows === 0) {
        this.logger.error({
          msg: 'ledger commits failing: calls are refused until one succeeds',
          error: messageOf(error.cause ?? error),
        });
      }
      this.failingRows += batch.length;
      this.lastFailure = { reason: error.message, at: Date.now() };
      for (const pending of batch) pending.reject(error);
      return;
    } finally {
      this.committing = 0;
    }
    if (this.failingRows > 0) {
      this.logger.log({ msg: 'ledger commits succeed again', refusedRows: this.failingRows });
      this.failingRows = 0;
    }
    this.stats.rows += batch.length;
    for (const pending of batch) pending.resolve();
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
