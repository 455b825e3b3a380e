import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Client } from 'pg';
import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { DeepPartial } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import { COSTLY_ESTIMATE } from '../fixtures/governance-fixture.capability';
import { governanceRulesApi } from '../support/governance-rules-api';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { McpHttpSession } from '../support/mcp-http-session';
import { createTask, modernRequest } from '../support/modern-task-requests';
import { TEST_POSTGRES_URL } from '../support/postgres';
import { servicesAvailable, tcpCheck } from '../support/service-availability';

/**
 * The operator metrics of #18, each read from a real scrape of GET /metrics
 * on a real HTTP gateway: mcp_budget_used_ratio (the spend gauge's labels,
 * a budget changed through the admin API shown without a call),
 * mcp_redis_up (absent on the memory driver; redis mode is in
 * operator-health.e2e-spec.ts), mcp_tasks_queued, and
 * mcp_ledger_backlog_rows with mcp_ledger_up on PostgreSQL while a lock
 * holds the ledger's commits back.
 */

const TOKEN = 'operator-metrics-token-0123456789abcdef';

async function scrape(gateway: HttpGatewayHandle): Promise<string> {
  return (await fetch(`${gateway.baseUrl}/metrics`)).text();
}

/** The value of one series line, e.g. `mcp_ledger_up 1`, or undefined when absent. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every sample of one family, by its label set as written. */
function samples(metrics: string, family: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [, labels, value] of metrics.matchAll(
    new RegExp(`^${family}(\\{[^}]*\\})? (\\S+)$`, 'gm'),
  )) {
    found[labels ?? ''] = Number(value);
  }
  return found;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await delay(50);
  }
  return true;
}

async function gatewayWithToken(config: DeepPartial<GatewayConfig>): Promise<HttpGatewayHandle> {
  const saved = process.env[ADMIN_TOKEN_ENV];
  process.env[ADMIN_TOKEN_ENV] = TOKEN;
  try {
    return await startHttpGateway({ fixtures: true, config });
  } finally {
    if (saved === undefined) delete process.env[ADMIN_TOKEN_ENV];
    else process.env[ADMIN_TOKEN_ENV] = saved;
  }
}

async function callCostly(gateway: HttpGatewayHandle, clientId: string, times: number) {
  const session = await McpHttpSession.open(gateway.baseUrl, { 'x-mcp-client-id': clientId });
  for (let i = 0; i < times; i++) {
    const reply = await session.request(i, 'tools/call', { name: 'gov_costly', arguments: {} });
    expect(reply).toHaveProperty('result');
  }
  await session.close();
}

describe('budget ratio, tasks queued and the ledger on the embedded default', () => {
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    gateway = await gatewayWithToken({
      // One client label of its own: the second client counts as "other".
      metrics: { client_label_limit: 1 },
      governance: {
        clients: {
          acme: { quota: { monthly_budget: 10 } },
          globex: { quota: { monthly_budget: 4 } },
        },
      },
      tasks: { workers: 1 },
    });
  }, 60_000);

  afterAll(() => gateway?.close());

  it('exports the ledger gauges and no mcp_redis_up family at all on the memory driver', async () => {
    const metrics = await scrape(gateway);
    expect(sample(metrics, 'mcp_ledger_up')).toBe(1);
    expect(sample(metrics, 'mcp_ledger_backlog_rows')).toBe(0);
    expect(metrics).not.toContain('mcp_redis_up');
  });

  it('divides each client’s spend by its budget under the spend gauge’s labels, budget changes included', async () => {
    await callCostly(gateway, 'acme', 2);
    await callCostly(gateway, 'globex', 1);
    let metrics = await scrape(gateway);
    expect(samples(metrics, 'mcp_budget_spend')).toEqual({
      '{client="acme"}': 2 * COSTLY_ESTIMATE,
      '{client="other"}': COSTLY_ESTIMATE,
    });
    expect(samples(metrics, 'mcp_budget_used_ratio')).toEqual({
      '{client="acme"}': (2 * COSTLY_ESTIMATE) / 10,
      '{client="other"}': COSTLY_ESTIMATE / 4,
    });

    // A budget raised through the admin API shows at the next scrape, without a call.
    const admin = governanceRulesApi(gateway.baseUrl, TOKEN);
    const rules = await admin.get<{
      clients: Record<string, { quota?: Record<string, number> }>;
    }>();
    rules.clients.acme.quota = { ...rules.clients.acme.quota, monthly_budget: 40 };
    expect((await admin.put(rules)).status).toBe(200);
    metrics = await scrape(gateway);
    expect(samples(metrics, 'mcp_budget_used_ratio')['{client="acme"}']).toBe(
      (2 * COSTLY_ESTIMATE) / 40,
    );
  });

  it('counts tasks waiting for the one worker in mcp_tasks_queued', async () => {
    const running = await createTask(gateway.baseUrl, 'tasker', 'task_sleep', { ms: 20_000 });
    const waiting = await createTask(gateway.baseUrl, 'tasker', 'task_sleep', { ms: 20_000 });
    expect(
      await eventually(async () => {
        const metrics = await scrape(gateway);
        return (
          sample(metrics, 'mcp_tasks_queued') === 1 && sample(metrics, 'mcp_tasks_running') === 1
        );
      }),
    ).toBe(true);
    for (const task of [waiting, running]) {
      await modernRequest(gateway.baseUrl, 'tasker', 'tasks/cancel', { taskId: task.taskId });
    }
    expect(
      await eventually(async () => sample(await scrape(gateway), 'mcp_tasks_queued') === 0),
    ).toBe(true);
  });
});

const postgresAvailable = servicesAvailable('ledger backlog on PostgreSQL', [
  tcpCheck('PostgreSQL', '127.0.0.1', 5432),
]);

(postgresAvailable ? describe : describe.skip)('ledger backlog on PostgreSQL', () => {
  const schema = `owlclaw_backlog_${randomUUID().slice(0, 8)}`;
  let pg: Client;
  let locker: Client;
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    pg = new Client({ connectionString: TEST_POSTGRES_URL });
    await pg.connect();
    await pg.query(`create schema ${schema}`);
    gateway = await gatewayWithToken({
      ledger: {
        driver: 'postgres',
        postgres_url: `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      },
    });
    locker = new Client({ connectionString: TEST_POSTGRES_URL });
    await locker.connect();
  }, 60_000);

  afterAll(async () => {
    await locker?.query('rollback').catch(() => undefined);
    await locker?.end();
    await gateway?.close();
    if (pg) {
      await pg.query(`drop schema if exists ${schema} cascade`);
      await pg.end();
    }
  });

  it('counts rows waiting for their commit while a lock holds commits back, then none', async () => {
    // Seeds the client's spend (a ledger read) before the lock, so the calls below only write.
    await callCostly(gateway, 'writer', 1);
    expect(sample(await scrape(gateway), 'mcp_ledger_backlog_rows')).toBe(0);

    // SHARE mode lets reads through (the ping, spend reads) and holds every INSERT back.
    await locker.query('begin');
    await locker.query(`lock table ${schema}.ledger in share mode`);
    const calls = callCostly(gateway, 'writer', 3);
    expect(
      await eventually(async () => {
        const metrics = await scrape(gateway);
        return (sample(metrics, 'mcp_ledger_backlog_rows') ?? 0) >= 1;
      }),
    ).toBe(true);
    // The store still answers its ping: it is the commits that wait.
    expect(sample(await scrape(gateway), 'mcp_ledger_up')).toBe(1);

    await locker.query('commit');
    await calls;
    expect(
      await eventually(async () => sample(await scrape(gateway), 'mcp_ledger_backlog_rows') === 0),
    ).toBe(true);
  }, 60_000);
});
