import { CanActivate, Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { LEDGER_STORE, LedgerStore } from './ledger-store';

/**
 * Refuses a governed call before it runs while the ledger cannot record it,
 * so that a tool never acts for a call whose answer can only be an error.
 */
@Injectable()
export class LedgerReadyGuard implements CanActivate {
  private readonly enabled: boolean;

  constructor(
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.enabled = config.ledger.enabled;
  }

  canActivate(): boolean {
    const fault = this.enabled ? this.store.fault() : undefined;
    if (fault) throw fault;
    return true;
  }
}
