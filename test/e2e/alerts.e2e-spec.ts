import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { scrapeMetric } from '../support/gateway-metrics';
import { governanceRulesApi } from '../support/governance-rules-api';
import { writeConfig } from '../support/governed-clients';
import { HttpGatewayChild } from '../support/http-child';
import { freePort, RedisServer } from '../support/redis-server';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { programCheck, servicesAvailable } from '../support/service-availability';
import { REPO_ROOT } from '../support/stdio-process';
import { Json, WebhookReceiver } from '../support/webhook-receiver';

/*
 * Alerts from a real gateway process in redis mode, against a redis-server
 * this suite starts, stops and restarts on one port, delivered to real HTTP
 * receivers: one that refuses its first two requests with 500, one that never
 * answers, and a port where nothing listens. Evaluations run every second.
 * Later cases add an upstream to the registry directory and spend a client's
 * budget through the ledger, then clear each condition as an operator would.
 */

const FAILED_FIRST = 2;
const ADMIN_TOKEN = 'alerts-e2e-admin-token-0123456789abcdef';
const MONTHLY_BUDGET = 10;
/** A plain-Node stdio MCP server (no SDK): it starts in tens of milliseconds. */
const SERVING_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'crash-upstream.mjs');

const available = servicesAvailable('alerts e2e', [programCheck('redis-server', 'redis-server')]);

/** Polls `check` (bounded) until it holds. */
async function eventually(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

(available ? describe : describe.skip)('alerts: webhooks and four of the rules', () => {
  const run = randomUUID().slice(0, 8);
  let dir: string;
  let registryDir: string;
  let redis: RedisServer;
  let redisPort: number;
  let recorder: WebhookReceiver;
  let silent: WebhookReceiver;
  let gateway: HttpGatewayChild;
  let client: SdkClientHandle;

  const evaluations = () => scrapeMetric(gateway.baseUrl, 'mcp_alert_evaluations_total');
  /** Waits until the gateway has completed `count` more evaluations. */
  const afterEvaluations = async (count: number) => {
    const target = (await evaluations()) + count;
    await eventually(`${count} evaluations`, async () => (await evaluations()) >= target);
  };
  const callTool = (name: string, args: Json = {}) =>
    client.client.callTool({ name, arguments: args });
  /** The first notice of `alert` the recorder got, once it has come. */
  const firstNotice = async (alert: string) => {
    await eventually(`${alert} firing`, () => recorder.delivered({ alert }).length > 0);
    return recorder.delivered({ alert })[0];
  };
  /**
   * Waits for `alert`'s resolved notice; `evaluations` evaluations later, checks that
   * it was sent once firing and once resolved, for one instance, and is no longer firing.
   */
  const resolvedOnce = async (alert: string, evaluations: number) => {
    await eventually(
      `${alert} resolved`,
      () => recorder.delivered({ alert, status: 'resolved' }).length > 0,
    );
    await afterEvaluations(evaluations);
    const notices = recorder.delivered({ alert });
    expect(notices.map((n) => n.status)).toEqual(['firing', 'resolved']);
    expect(notices[1].fingerprint).toBe(notices[0].fingerprint);
    expect(await scrapeMetric(gateway.baseUrl, `mcp_alerts_firing{alert="${alert}"}`)).toBe(0);
    return notices;
  };
  /** Writes (or replaces) one stdio upstream's registry file; the gateway watches the directory. */
  const writeUpstream = (serverId: string, command: string[]) =>
    writeFileSync(
      join(registryDir, `${serverId}.json`),
      JSON.stringify({
        version: 1,
        server_id: serverId,
        transport: 'stdio',
        stdio: { command: command[0], args: command.slice(1) },
        allowed_tools: ['*'],
      }),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-alerts-'));
    registryDir = join(dir, 'mcp.d');
    mkdirSync(registryDir);
    redisPort = await freePort();
    redis = await RedisServer.start(redisPort);
    recorder = await WebhookReceiver.start((n) => (n <= FAILED_FIRST ? 500 : 200));
    silent = await WebhookReceiver.start(() => 'hang');
    const nothingListens = await freePort();
    const configPath = writeConfig(dir, 'alerts.yaml', {
      capabilities: { demo_pack: false },
      http: { host: '127.0.0.1', port: 0 },
      state: {
        driver: 'redis',
        redis_url: redis.url,
        key_prefix: `owlclaw-alerts:${run}:`,
        sessions: 'local',
      },
      ledger: { sqlite_path: join(dir, 'ledger.db') },
      upstreams: { registry_dir: registryDir, restart_max_failures: 1 },
      governance: {
        default_quota: { max_calls_per_minute: 1000, monthly_budget: MONTHLY_BUDGET },
      },
      alerts: {
        enabled: true,
        evaluation_interval_seconds: 1,
        repeat_interval_seconds: 3600,
        webhooks: [
          { url: recorder.url, timeout_ms: 2000, max_retries: 3 },
          { url: silent.url, timeout_ms: 60_000, max_retries: 0 },
          { url: `http://127.0.0.1:${nothingListens}/alerts`, max_retries: 1 },
        ],
        rules: {
          error_rate: { threshold: 0.5, window_seconds: 5, min_requests: 4 },
          upstream_down: { minutes: 0 },
          budget: { percent: 50 },
        },
      },
    });
    gateway = await HttpGatewayChild.start({
      MCP_SERVER_CONFIG: configPath,
      [ADMIN_TOKEN_ENV]: ADMIN_TOKEN,
    });
    client = await connectSdkClient({ kind: 'streamable-http', baseUrl: gateway.baseUrl });
  }, 120_000);

  afterAll(async () => {
    await client?.dispose();
    await gateway?.stop();
    await redis?.kill();
    await Promise.all([recorder?.close(), silent?.close()]);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('fires error_rate when calls fail, retried past the receiver refusing its first requests', async () => {
    for (let i = 0; i < 6; i++) {
      await expect(callTool('fx_throw')).rejects.toThrow();
    }
    const firing = await firstNotice('error_rate');
    expect(firing).toMatchObject({ status: 'firing', severity: 'warning', version: 1 });
    expect(firing.summary).toMatch(
      /^\d+ of \d+ MCP requests \(\d+\.\d %\) failed over the last 5 s/,
    );
    // The first notification met the two 500s, and was sent again each time with the same id.
    expect(recorder.attempts(firing.id)).toBe(FAILED_FIRST + 1);
    expect(recorder.requests.slice(0, FAILED_FIRST + 1).every((r) => r.body.id === firing.id)).toBe(
      true,
    );
  });

  it('keeps answering tools/call while a receiver hangs and another refuses connections', async () => {
    await eventually('a delivery held by the silent receiver', () => silent.hanging === 1);
    await eventually(
      'the refused webhook to give up',
      async () =>
        (await scrapeMetric(gateway.baseUrl, 'mcp_alert_notifications_total{outcome="failed"}')) >=
        1,
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => callTool('fx_add', { a: i, b: 1 })),
    );
    expect(results.every((result) => result.isError !== true)).toBe(true);
    // Every call was answered while the silent receiver still held its first notification.
    expect(silent.hanging).toBe(1);
    expect(silent.requests).toHaveLength(1);
  });

  it('resolves error_rate once the failures leave the window', async () => {
    await eventually(
      'error_rate resolved',
      () => recorder.delivered({ alert: 'error_rate', status: 'resolved' }).length > 0,
    );
    const [firing] = recorder.delivered({ alert: 'error_rate', status: 'firing' });
    const [resolved] = recorder.delivered({ alert: 'error_rate', status: 'resolved' });
    expect(resolved.fingerprint).toBe(firing.fingerprint);
    expect(resolved.startsAt).toBe(firing.startsAt);
    expect(Date.parse(resolved.endsAt as string)).toBeGreaterThan(
      Date.parse(firing.startsAt as string),
    );
    expect(await scrapeMetric(gateway.baseUrl, 'mcp_alerts_firing{alert="error_rate"}')).toBe(0);
  });

  it('fires redis_down once while Redis stays down, over several evaluations', async () => {
    await redis.kill();
    await eventually(
      'redis_down firing',
      () => recorder.delivered({ alert: 'redis_down' }).length > 0,
    );
    await afterEvaluations(4);
    const firing = recorder.delivered({ alert: 'redis_down' });
    expect(firing).toHaveLength(1);
    expect(firing[0]).toMatchObject({
      status: 'firing',
      alert: 'redis_down',
      severity: 'critical',
      labels: { alertname: 'redis_down', severity: 'critical' },
      gateway: { pid: gateway.child.pid },
    });
    expect(firing[0].summary).toContain('Redis (state.redis_url) is unreachable');
    expect(firing[0]).not.toHaveProperty('endsAt');
    expect((firing[0].labels as Json).instance).toBe((firing[0].gateway as Json).instance);
    expect(await scrapeMetric(gateway.baseUrl, 'mcp_alerts_firing{alert="redis_down"}')).toBe(1);
  });

  it('sends resolved once when Redis is back on the same port', async () => {
    redis = await RedisServer.start(redisPort);
    const notices = await resolvedOnce('redis_down', 4);
    expect(notices[1].endsAt).toEqual(expect.any(String));
  });

  it('fires upstream_down for an upstream that cannot start, and resolves once it serves', async () => {
    writeUpstream('broken', ['/bin/sh', '-c', 'exit 3']);
    const firing = await firstNotice('upstream_down');
    expect(firing).toMatchObject({
      status: 'firing',
      severity: 'warning',
      labels: { alertname: 'upstream_down', severity: 'warning', server: 'broken' },
    });
    expect(firing.summary).toMatch(
      /^Upstream broken has been down since \S+ \(0 min\); its tools are not served; last error: /,
    );
    expect(await scrapeMetric(gateway.baseUrl, 'mcp_alerts_firing{alert="upstream_down"}')).toBe(1);

    // The same server id, now a command that serves: the registry replaces the record.
    writeUpstream('broken', [process.execPath, SERVING_UPSTREAM]);
    await resolvedOnce('upstream_down', 2);
    await eventually('the upstream serving its tool', async () => {
      const echoed = await callTool('broken__echo', { text: 'back' }).catch(() => undefined);
      return echoed !== undefined && echoed.isError !== true;
    });
  });

  it('fires budget once a client has spent half its monthly budget, and resolves when the budget is raised', async () => {
    // Estimated at 0, so the call is admitted; the ledger records the 6 it reports.
    const spent = await callTool('budget_reporter', { cost: 6 });
    expect(spent.isError).not.toBe(true);
    const firing = await firstNotice('budget');
    const client = (firing.labels as Json).client as string;
    expect(firing).toMatchObject({
      status: 'firing',
      severity: 'warning',
      labels: { alertname: 'budget', severity: 'warning', client: expect.any(String) },
    });
    expect(firing.summary).toBe(
      `Client ${client} has spent 60.0 % of its monthly budget (6 of ${MONTHLY_BUDGET}); the threshold is 50 %.`,
    );

    const admin = governanceRulesApi(gateway.baseUrl, ADMIN_TOKEN);
    const rules = await admin.get<{ default_quota: Record<string, number> }>();
    rules.default_quota.monthly_budget = 100;
    expect((await admin.put(rules)).status).toBe(200);
    await resolvedOnce('budget', 2);
  });
});
