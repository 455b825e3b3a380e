import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { GATEWAY_CONFIG, GATEWAY_CONFIG_SOURCE } from './config.constants';
import { GatewayConfig } from './gateway-config';

/**
 * Makes the already loaded and validated GatewayConfig available everywhere.
 * Loading happens before Nest starts (the CLI must report config errors and
 * choose the transport before any module exists), so this module only hands
 * the result over: typed via `@Inject(GATEWAY_CONFIG)`, and as `mcp_server.*`
 * through Nest's ConfigService for code that prefers it. `.env` files are not
 * read: the gateway's own loader is the single place config comes from.
 */
@Module({})
export class GatewayConfigModule {
  /** `source`: the file the config was read from, if any (for reloading rules). */
  static forRoot(config: GatewayConfig, source?: string): DynamicModule {
    return {
      module: GatewayConfigModule,
      global: true,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          load: [() => ({ mcp_server: config })],
        }),
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        // A factory: Nest does not accept `useValue: undefined`.
        { provide: GATEWAY_CONFIG_SOURCE, useFactory: () => source },
      ],
      exports: [GATEWAY_CONFIG, GATEWAY_CONFIG_SOURCE],
    };
  }
}
