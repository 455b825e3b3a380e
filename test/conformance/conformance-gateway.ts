/**
 * The real HTTP gateway plus the conformance fixture pack, for the official
 * MCP conformance suite: `node -r @swc-node/register test/conformance/conformance-gateway.ts`.
 *
 * Built-in defaults (skills included) with the environment ignored and the
 * demo pack left out (the 2026-07-28 scenarios call the first listed tool
 * with no arguments, which a fixture tool accepts and the demo's do not), so a developer's MCP_SERVER_* variables cannot change what is
 * tested; bound to 127.0.0.1 (the DNS-rebinding scenario needs a loopback
 * gateway) on a free port, with its ledger in a scratch file. It reports
 * `{ port }` on its IPC channel when it has one, and always on stdout.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpGateway, listenHttpGateway } from '../../src/bootstrap/http.bootstrap';
import { loadGatewayConfig } from '../../src/config/config.loader';
import { GatewayLogger } from '../../src/logging/gateway-logger';
import { GENEROUS_QUOTA } from '../support/test-defaults';
import { ConformanceFixtureModule } from './conformance-fixture.module';

const REPO_ROOT = join(__dirname, '..', '..');

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'owlclaw-conformance-'));
  process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  const config = loadGatewayConfig({
    cwd: REPO_ROOT,
    env: {},
    overrides: {
      transport: 'http',
      http: { host: '127.0.0.1', port: 0 },
      ledger: { sqlite_path: join(scratch, 'ledger.db') },
      logging: { level: 'warn' },
      capabilities: { demo_pack: false },
      // The two suites make hundreds of calls as one client within a minute; limits are not what they test.
      governance: { default_quota: GENEROUS_QUOTA },
    },
  });
  const logger = new GatewayLogger(config.logging);
  const app = await createHttpGateway({ config, logger, extraModules: [ConformanceFixtureModule] });
  const { port } = await listenHttpGateway(app, config);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.send?.({ port });
  // Like the CLI: an orderly stop exits 0 (Nest's own hook would re-raise the signal).
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`conformance gateway failed: ${String(err)}\n`);
  process.exit(1);
});
