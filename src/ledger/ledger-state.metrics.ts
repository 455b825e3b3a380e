import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { withDeadline } from '../common/with-deadline';
import { HEALTH_CHECK_TIMEOUT_MS } from '../health/health.constants';
import { ScrapeTimeGauge } from '../observability/scrape-time.gauge';
import { LEDGER_STORE, LedgerStore } from './ledger-store';
import { MCP_LEDGER_BACKLOG_ROWS, MCP_LEDGER_UP } from './ledger-metrics.constants';
import { LedgerWriter } from './ledger.writer';

/**
 * The ledger's state, read at scrape time: rows accepted but not yet
 * committed (the writer's backlog), and whether the store answers a ping as
 * readiness asks it (1) or not (0), so an alert can say "unwritable".
 */
@Injectable()
export class LedgerStateMetrics implements OnModuleInit, OnApplicationShutdown {
  private readonly backlog: ScrapeTimeGauge;
  private readonly up: ScrapeTimeGauge;

  constructor(writer: LedgerWriter, @Inject(LEDGER_STORE) store: LedgerStore) {
    this.backlog = new ScrapeTimeGauge(
      {
        name: MCP_LEDGER_BACKLOG_ROWS,
        help: 'Ledger rows accepted but not yet committed to the store (queued or in the commit under way)',
      },
      (gauge) => gauge.set(writer.backlog),
    );
    this.up = new ScrapeTimeGauge(
      {
        name: MCP_LEDGER_UP,
        help: `1 while the ledger store answers a ping within ${HEALTH_CHECK_TIMEOUT_MS} ms and has no fault, else 0`,
      },
      (gauge) =>
        withDeadline(() => store.ping(), HEALTH_CHECK_TIMEOUT_MS).then(
          () => gauge.set(1),
          () => gauge.set(0),
        ),
    );
  }

  onModuleInit(): void {
    this.backlog.start();
    this.up.start();
  }

  onApplicationShutdown(): void {
    this.backlog.stop();
    this.up.stop();
  }
}
