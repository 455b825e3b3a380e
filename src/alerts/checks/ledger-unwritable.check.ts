import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { LEDGER_STORE, LedgerStore } from '../../ledger/ledger-store';
import { HEALTH_CHECK_TIMEOUT_MS } from '../../health/health.constants';
import { LedgerWriter } from '../../ledger/ledger.writer';
import { AlertCheck, CheckOutcome } from '../alert-observation';
import { ALERT_LIMITS } from '../alerts.constants';
import { withDeadline } from '../../common/with-deadline';
import { reasonOf } from '../check-failure.reason';

/**
 * The ledger cannot record calls: its store has a fault that lasts until a
 * restart (a SQLite file removed or replaced), commits failed since the last
 * evaluation and none succeeded since, or it does not answer a ping in time
 * (the readiness probe's test). Governed calls are refused meanwhile.
 */
@Injectable()
export class LedgerUnwritableCheck implements AlertCheck {
  readonly alert = 'ledger_unwritable';
  readonly active: boolean;
  private readonly driver: string;
  private seenFailedRows: number;

  constructor(
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
    private readonly writer: LedgerWriter,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.active = config.alerts.rules.ledger_unwritable.enabled && config.ledger.enabled;
    this.driver = config.ledger.driver;
    this.seenFailedRows = writer.stats.failedRows;
  }

  async evaluate(): Promise<CheckOutcome> {
    const problem = await this.problem();
    if (problem === undefined) return [];
    return [
      {
        alert: this.alert,
        severity: 'critical',
        labels: {},
        summary: `The ledger (${this.driver}) cannot record calls: ${problem}. Governed calls are refused until it can.`,
      },
    ];
  }

  private async problem(): Promise<string | undefined> {
    const max = ALERT_LIMITS.maxReasonChars;
    const fault = this.store.fault();
    if (fault) return `${reasonOf(fault, max)} (only a restart clears this)`;
    const failedRows = this.writer.stats.failedRows;
    const newlyFailed = failedRows - this.seenFailedRows;
    this.seenFailedRows = failedRows;
    if (this.writer.failing && newlyFailed > 0) {
      return `${newlyFailed} rows failed to commit since the last evaluation`;
    }
    try {
      await withDeadline(() => this.store.ping(), HEALTH_CHECK_TIMEOUT_MS, 'ping');
      return undefined;
    } catch (err) {
      return `ping failed: ${reasonOf(err, max)}`;
    }
  }
}
