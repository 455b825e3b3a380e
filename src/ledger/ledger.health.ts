import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { LEDGER_STORE, LedgerStore } from './ledger-store';
import { LEDGER_PING_TIMEOUT_MS } from './ledger.constants';

/** Readiness of the ledger: a call that cannot be recorded cannot be answered. */
@Injectable()
export class LedgerHealthIndicator {
  private readonly driver: string;

  constructor(
    private readonly indicator: HealthIndicatorService,
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.driver = config.ledger.driver;
  }

  async check(key = 'ledger'): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.store.ping(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${LEDGER_PING_TIMEOUT_MS} ms`)),
            LEDGER_PING_TIMEOUT_MS,
          );
        }),
      ]);
      return session.up({ driver: this.driver, latencyMs: Date.now() - started });
    } catch (err) {
      return session.down({
        driver: this.driver,
        reason: err instanceof Error ? err.message : String(err),
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
