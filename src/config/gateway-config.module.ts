import { DynamicModule, Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GATEWAY_CONFIG_SOURCE } from './config.constants';
import { GatewayConfig } from './gateway-config';

/**
 * Makes the already loaded and validated GatewayConfig available everywhere as
 * `@Inject(GATEWAY_CONFIG)`. Loading happens before Nest starts (the CLI must
 * report config errors and choose the transport before any module exists),
 * which is why @nestjs/config, whose job is that loading, is not used.
 */
@Module({})
export class GatewayConfigModule {
  /** `source`: the file the config was read from, if any (for reloading rules). */
  static forRoot(config: GatewayConfig, source?: string): DynamicModule {
    return {
      module: GatewayConfigModule,
      global: true,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        // A factory: Nest does not accept `useValue: undefined`.
        { provide: GATEWAY_CONFIG_SOURCE, useFactory: () => source },
      ],
      exports: [GATEWAY_CONFIG, GATEWAY_CONFIG_SOURCE],
    };
  }
}
