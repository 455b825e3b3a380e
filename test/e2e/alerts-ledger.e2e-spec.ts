import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from 'pg';
import { writeConfig } from '../support/governed-clients';
import { HttpGatewayChild } from '../support/http-child';
import { TEST_POSTGRES_URL } from '../support/postgres';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { TcpProxy } from '../support/tcp-proxy';
import { WebhookReceiver } from '../support/webhook-receiver';

/*
 * ledger_unwritable from a real gateway process whose PostgreSQL ledger (a
 * schema of its own) is reached through a TCP relay: cutting the relay makes
 * the database unreachable to this gateway only, as a network cut would, and
 * bringing it back on the same port lets the ledger answer again.
 */

const postgres = new URL(TEST_POSTGRES_URL);
const available = servicesAvailable('alerts ledger e2e', [
  tcpCheck('PostgreSQL', postgres.hostname, Number(postgres.port || 5432)),
]);

async function eventually(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

(available ? describe : describe.skip)('alerts: ledger_unwritable on a PostgreSQL ledger', () => {
  const schema = `owlclaw_alerts_${randomUUID().slice(0, 8)}`;
  let dir: string;
  let pg: Client;
  let proxy: TcpProxy;
  let receiver: WebhookReceiver;
  let gateway: HttpGatewayChild;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-alerts-ledger-'));
    pg = new Client({ connectionString: TEST_POSTGRES_URL });
    await pg.connect();
    await pg.query(`create schema ${schema}`);
    proxy = await TcpProxy.start(postgres.hostname, Number(postgres.port || 5432));
    receiver = await WebhookReceiver.start();
    const relayed = new URL(TEST_POSTGRES_URL);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(proxy.port);
    relayed.searchParams.set('options', `-c search_path=${schema}`);
    const configPath = writeConfig(dir, 'alerts-ledger.yaml', {
      capabilities: { demo_pack: false },
      http: { host: '127.0.0.1', port: 0 },
      ledger: { driver: 'postgres', postgres_url: relayed.toString() },
      alerts: { enabled: true, evaluation_interval_seconds: 1, webhooks: [receiver.url] },
    });
    gateway = await HttpGatewayChild.start({ MCP_SERVER_CONFIG: configPath });
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await proxy?.stop();
    await receiver?.close();
    if (pg) {
      await pg.query(`drop schema if exists ${schema} cascade`);
      await pg.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('fires when the database cannot be reached, and resolves when it can again', async () => {
    await proxy.stop();
    await eventually(
      'ledger_unwritable firing',
      () => receiver.delivered({ alert: 'ledger_unwritable' }).length > 0,
    );
    const [firing] = receiver.delivered({ alert: 'ledger_unwritable' });
    expect(firing).toMatchObject({ status: 'firing', severity: 'critical' });
    expect(firing.summary).toMatch(/^The ledger \(postgres\) cannot record calls: ping failed: /);

    await proxy.restart();
    await eventually(
      'ledger_unwritable resolved',
      () => receiver.delivered({ alert: 'ledger_unwritable', status: 'resolved' }).length > 0,
    );
    expect(receiver.delivered({ alert: 'ledger_unwritable' }).map((n) => n.status)).toEqual([
      'firing',
      'resolved',
    ]);
    // The gateway lived through the outage it reported.
    expect((await fetch(`${gateway.baseUrl}/health/ready`)).status).toBe(200);
  });
});
