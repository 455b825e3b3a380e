import { NestExpressApplication } from '@nestjs/platform-express';
import { createHttpGateway, listenHttpGateway } from '../../src/bootstrap/http.bootstrap';
import { DeepPartial, loadGatewayConfig } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import { FixtureModule } from '../fixtures/fixture.module';
import { REPO_ROOT } from './stdio-process';
import { GENEROUS_QUOTA, tempLedgerPath } from './test-defaults';

export interface HttpGatewayHandle {
  app: NestExpressApplication;
  config: GatewayConfig;
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  close(): Promise<void>;
}

export interface HttpGatewayOptions {
  fixtures?: boolean;
  config?: DeepPartial<GatewayConfig>;
}

/** The real HTTP gateway, in this process, on a free loopback port. */
export async function startHttpGateway(
  options: HttpGatewayOptions = {},
): Promise<HttpGatewayHandle> {
  const config = loadGatewayConfig({
    cwd: REPO_ROOT,
    env: {},
    overrides: mergeDeep<DeepPartial<GatewayConfig>>(
      {
        transport: 'http',
        http: { host: '127.0.0.1', port: 0 },
        ledger: { sqlite_path: tempLedgerPath() },
        governance: { default_quota: GENEROUS_QUOTA },
      },
      options.config ?? {},
    ),
  });
  const app = await createHttpGateway({
    config,
    logger: false,
    extraModules: options.fixtures ? [FixtureModule] : [],
  });
  const address = await listenHttpGateway(app, config);
  return {
    app,
    config,
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: () => app.close(),
  };
}

function mergeDeep<T extends object>(base: T, extra: object): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] =
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      current &&
      typeof current === 'object'
        ? mergeDeep(current, value as object)
        : value;
  }
  return out as T;
}
