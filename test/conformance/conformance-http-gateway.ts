import { NestExpressApplication } from '@nestjs/platform-express';
import { createHttpGateway, listenHttpGateway } from '../../src/bootstrap/http.bootstrap';
import { DeepPartial, loadGatewayConfig } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import { REPO_ROOT } from '../support/stdio-process';
import { tempLedgerPath } from '../support/test-defaults';
import { ConformanceFixtureModule } from './conformance-fixture.module';

export interface ConformanceGateway {
  app: NestExpressApplication;
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The real HTTP gateway with the conformance fixture pack, in this process on
 * a free loopback port, for the e2e suites that check what the conformance
 * suite relies on. `overrides` go on top of the built-in defaults.
 */
export async function startConformanceGateway(
  overrides: DeepPartial<GatewayConfig> = {},
): Promise<ConformanceGateway> {
  const config = loadGatewayConfig({
    cwd: REPO_ROOT,
    env: {},
    overrides: {
      ...overrides,
      // Its own ledger (and the task store beside it), not ./data shared with other suites.
      ledger: { sqlite_path: tempLedgerPath(), ...overrides.ledger },
      transport: 'http',
      http: { host: '127.0.0.1', port: 0 },
    },
  });
  const app = await createHttpGateway({
    config,
    logger: false,
    extraModules: [ConformanceFixtureModule],
  });
  const { port } = await listenHttpGateway(app, config);
  return { app, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}
