import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { timedCheck } from '../health/timed-check';
import { LEDGER_STORE, LedgerStore } from './ledger-store';
import { LedgerWriter } from './ledger.writer';

/**
 * How long after a failed commit readiness stays down with no commit tried
 * since: a replica out of traffic gets calls again to find out whether the
 * ledger writes, instead of staying unready for good.
 */
export const LEDGER_FAILURE_HOLD_MS = 10_000;

/**
 * Readiness of the ledger: a call that cannot be recorded cannot be answered.
 * Down while the store fails a ping, and while the last commit failed (a full
 * disk answers pings) and none has succeeded since.
 */
@Injectable()
export class LedgerHealthIndicator {
  private readonly driver: string;

  constructor(
    private readonly indicator: HealthIndicatorService,
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
    private readonly writer: LedgerWriter,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.driver = config.ledger.driver;
  }

  /** `detailed` (the admin API) adds the writer's backlog and commit counts. */
  check(key = 'ledger', detailed = false): Promise<HealthIndicatorResult> {
    const details = detailed
      ? { driver: this.driver, backlogRows: this.writer.backlog, commits: { ...this.writer.stats } }
      : { driver: this.driver };
    const failure = this.writer.failure;
    if (failure !== undefined && Date.now() - failure.at < LEDGER_FAILURE_HOLD_MS) {
      const since = new Date(failure.at).toISOString();
      const reason = `the last commit failed at ${since} and none has succeeded since: ${failure.reason}`;
      return Promise.resolve(this.indicator.check(key).down({ ...details, reason }));
    }
    return timedCheck(this.indicator.check(key), () => this.store.ping(), details);
  }
}
