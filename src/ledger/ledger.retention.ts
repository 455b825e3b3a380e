import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { LEDGER_STORE, LedgerStore } from './ledger-store';
import { DAY_MS, LEDGER_PRUNE_INTERVAL_MS } from './ledger.constants';

/** Retention this long keeps every call of the current UTC month, whichever day it is. */
const FULL_MONTH_DAYS = 31;

/**
 * Deletes rows older than `ledger.retention_days` once at boot and then
 * daily (0 keeps everything). The timer is unref'd: it never holds the
 * process open. A failed prune is logged and retried at the next run.
 * Usage statistics describe the rows that are kept (the summary loses what
 * is pruned, in the same transaction), as does the monthly budget, which is
 * re-read from the ledger: hence the warning when retention is under a month.
 */
@Injectable()
export class LedgerRetention implements OnApplicationBootstrap {
  private readonly logger = new Logger(LedgerRetention.name);
  private readonly retentionDays: number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
  ) {
    this.retentionDays = config.ledger.retention_days;
  }

  onApplicationBootstrap(): void {
    if (this.retentionDays <= 0) return;
    if (this.retentionDays < FULL_MONTH_DAYS) {
      this.logger.warn({
        msg:
          `ledger.retention_days is ${this.retentionDays}, under a month: this month's usage ` +
          `statistics and the monthly spend re-read from the ledger count only the calls still kept`,
      });
    }
    this.run();
    this.timer = setInterval(() => this.run(), LEDGER_PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a prune in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Prunes now; resolves with the rows deleted (none when retention is off). */
  async pruneNow(now = Date.now()): Promise<number> {
    if (this.retentionDays <= 0) return 0;
    const before = now - this.retentionDays * DAY_MS;
    const deleted = await this.store.prune(before);
    if (deleted > 0) {
      this.logger.log({ msg: 'ledger pruned', deleted, before: new Date(before).toISOString() });
    }
    return deleted;
  }

  private run(): void {
    if (this.running) return;
    this.running = this.pruneNow()
      .then(
        () => undefined,
        (err: unknown) =>
          this.logger.warn({
            msg: 'ledger prune failed',
            error: err instanceof Error ? err.message : String(err),
          }),
      )
      .finally(() => (this.running = undefined));
  }
}
