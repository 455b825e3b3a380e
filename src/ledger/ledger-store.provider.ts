import { Provider } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { KyselyLedgerStore } from './kysely-ledger.store';
import { ledgerConnectionFromConfig } from './ledger-connection';
import { LEDGER_STORE, LedgerStore } from './ledger-store';
import { LEDGER_MAX_BATCH_ROWS } from './ledger.constants';
import { LedgerWriter } from './ledger.writer';

/** The store for `ledger.driver`, migrated before anything can record a call. */
export const ledgerStoreProvider: Provider = {
  provide: LEDGER_STORE,
  inject: [GATEWAY_CONFIG],
  useFactory: async (config: GatewayConfig): Promise<LedgerStore> => {
    const store = new KyselyLedgerStore(ledgerConnectionFromConfig(config.ledger));
    try {
      await store.init();
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
    return store;
  },
};

export const ledgerWriterProvider: Provider = {
  provide: LedgerWriter,
  inject: [LEDGER_STORE],
  useFactory: (store: LedgerStore) => new LedgerWriter(store, LEDGER_MAX_BATCH_ROWS),
};
