import { Provider } from '@nestjs/common';
import * as path from 'node:path';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { RegistryDirStore } from './registry-dir.store';
import { PostgresUpstreamRecordStore } from './upstream-records.postgres-store';
import { UPSTREAM_RECORD_STORE, UpstreamRecordStore } from './upstream-record.store';

/** Scale-out mode is the shared ledger plus the shared state: then records are shared too. */
export function isScaleOut(config: GatewayConfig): boolean {
  return config.ledger.driver === 'postgres' && config.state.driver === 'redis';
}

export const upstreamRecordStoreProvider: Provider = {
  provide: UPSTREAM_RECORD_STORE,
  inject: [GATEWAY_CONFIG],
  useFactory: async (config: GatewayConfig): Promise<UpstreamRecordStore> => {
    if (!isScaleOut(config))
      return new RegistryDirStore(path.resolve(config.upstreams.registry_dir));
    const store = new PostgresUpstreamRecordStore(config.ledger.postgres_url);
    try {
      await store.init();
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
    return store;
  },
};
