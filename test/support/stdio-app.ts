import { Test, TestingModule } from '@nestjs/testing';
import { PassThrough } from 'node:stream';
import { AppModule } from '../../src/app.module';
import { DeepPartial, loadGatewayConfig } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import { StdioTransport } from '../../src/transport/stdio/stdio.transport';
import { tempLedgerPath } from './test-defaults';

/** The gateway's own graph in stdio mode, in this process, served through in-process streams. */
export interface StdioApp {
  app: TestingModule;
  /** What the client writes (stdin). */
  input: PassThrough;
  /** What the gateway writes (stdout). */
  output: PassThrough;
  /** Ends stdin and closes the app. */
  close(): Promise<void>;
}

/** Starts it with a temporary SQLite ledger, plus `overrides` of the config. */
export async function startStdioApp(overrides: DeepPartial<GatewayConfig> = {}): Promise<StdioApp> {
  const config = loadGatewayConfig({
    env: {},
    overrides: { ledger: { sqlite_path: tempLedgerPath() }, ...overrides },
  });
  const app = await Test.createTestingModule({
    imports: [AppModule.forRoot({ transport: 'stdio', config })],
  }).compile();
  app.useLogger(false);
  await app.init();
  const input = new PassThrough();
  const output = new PassThrough();
  void app.get(StdioTransport).run(input, output, {});
  return {
    app,
    input,
    output,
    close: async () => {
      input.end();
      await app.close();
    },
  };
}
