import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { RoundRobinProxy } from '../../bench/shared/round-robin-proxy';
import { HttpGatewayChild } from '../support/http-child';
import { freePort } from '../support/redis-server';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { makeTempDir, removeDir } from '../support/skills-dir';
import { readLedgerRows } from '../support/sqlite-ledger';

/**
 * A rolling restart under load: two replicas (sessions shared through Redis)
 * behind a balancer without affinity that honours readiness (as Kubernetes
 * does), SDK clients calling without pause,
 * and each replica stopped (SIGTERM: readiness off, a drain delay, the
 * listener closed, calls in flight finished) and started again in turn.
 * No client sees an error or a reset, every session goes on across both
 * restarts, and every answered call is in a replica's ledger.
 */

const available = servicesAvailable('rolling restart e2e', [tcpCheck('Redis', '127.0.0.1', 6379)]);
const CLIENTS = 4;

interface LedgerColumns {
  arguments: string;
  outcome: string;
}

(available ? describe : describe.skip)('rolling restart behind a balancer', () => {
  let dir: string;
  let ports: number[];
  let env: (index: number) => Record<string, string>;
  const replicas: HttpGatewayChild[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    dir = makeTempDir('rolling-restart');
    ports = [await freePort(), await freePort()];
    const prefix = `owlclaw-test-${randomUUID().slice(0, 8)}:`;
    env = (index) => ({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: String(ports[index]),
      MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '1',
      MCP_SERVER_STATE_DRIVER: 'redis',
      MCP_SERVER_STATE_REDIS_URL: 'redis://127.0.0.1:6379',
      MCP_SERVER_STATE_KEY_PREFIX: prefix,
      MCP_SERVER_LEDGER_SQLITE_PATH: join(dir, `replica-${index}.db`),
      MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_MINUTE: '100000',
      MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_DAY: '1000000',
    });
    replicas.push(...(await Promise.all([0, 1].map((i) => HttpGatewayChild.start(env(i))))));
    proxy = await RoundRobinProxy.start(
      ports.map((port) => `http://127.0.0.1:${port}`),
      { keepAlive: false, readinessPath: '/health/ready' },
    );
  }, 180_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    removeDir(dir);
  }, 60_000);

  it('loses no call and resets no connection while each replica is restarted in turn', async () => {
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, index) => {
        const client = new Client({ name: `rolling-${index}`, version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), {
            requestInit: { headers: { 'X-MCP-Client-ID': `rolling-${index}` } },
          }),
        );
        return client;
      }),
    );
    const answered: string[] = [];
    const failures: string[] = [];
    let running = true;
    const load = clients.map(async (client, index) => {
      for (let n = 0; running; n++) {
        try {
          const result = await client.callTool({ name: 'fx_add', arguments: { a: n, b: index } });
          if ((result.structuredContent as { sum: number }).sum !== n + index) {
            failures.push(`client ${index} call ${n}: wrong sum`);
          }
          answered.push(JSON.stringify({ a: n, b: index }));
        } catch (err) {
          failures.push(`client ${index} call ${n}: ${String(err)}`);
        }
      }
    });

    for (const index of [0, 1]) {
      const before = answered.length;
      await replicas[index].stop();
      expect(await replicas[index].exited).toBe(0);
      replicas[index] = await HttpGatewayChild.start(env(index));
      // The survivor carried the load meanwhile; then the restarted one takes its share again.
      const after = answered.length;
      await waitUntil(() => answered.length >= after + 20);
      expect(after).toBeGreaterThan(before);
    }
    running = false;
    await Promise.all(load);
    await Promise.all(clients.map((client) => client.close()));

    expect(failures).toEqual([]);
    const ledgered = new Set(
      [0, 1].flatMap((index) =>
        readLedgerRows<LedgerColumns>(join(dir, `replica-${index}.db`))
          .filter((row) => row.outcome === 'success')
          .map((row) => row.arguments),
      ),
    );
    const missing = answered.filter((call) => !ledgered.has(call));
    expect({ answered: answered.length, missing }).toEqual({
      answered: answered.length,
      missing: [],
    });
  }, 180_000);
});

async function waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
