import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { timedCheck } from '../health/timed-check';
import { LEDGER_STORE, LedgerStore } from './ledger-store';
import { LedgerWriter } from './ledger.writer';

/** Readiness of the ledger: a call that cannot be recorded cannot be answered. */
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
    return timedCheck(this.indicator.check(key), () => this.store.ping(), details);
  }
}
