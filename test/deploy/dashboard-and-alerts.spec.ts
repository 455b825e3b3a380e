import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { writeEchoRegistryFile } from '../support/compiled-echo-upstream';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { McpHttpSession } from '../support/mcp-http-session';
import { freePort, RedisServer } from '../support/redis-server';
import { programCheck, servicesAvailable } from '../support/service-availability';
import { REPO_ROOT } from '../support/stdio-process';
import { grafanaVariableExpression, metricNamesOf } from './promql-metric-names';

/**
 * deploy/prometheus/alerts.yml and deploy/grafana/owlclaw.json read only
 * metrics the gateway exports: every name in every PromQL expression is
 * compared with the families of a real scrape of a gateway configured so
 * that every family exists (redis mode, a budget, an upstream). Also the
 * shape operators rely on: each alert's severity and annotations, the
 * dashboard's datasource and job/instance variables.
 */

const ALERTS_FILE = join(REPO_ROOT, 'deploy', 'prometheus', 'alerts.yml');
const DASHBOARD_FILE = join(REPO_ROOT, 'deploy', 'grafana', 'owlclaw.json');

/** Made by Prometheus itself for every target, never by the gateway. */
const PROMETHEUS_OWN = new Set(['up']);

interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface GrafanaPanel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Array<{ expr: string; datasource?: { type: string; uid: string } }>;
  panels?: GrafanaPanel[];
  fieldConfig?: { defaults?: { unit?: string } };
}

interface GrafanaVariable {
  name: string;
  type: string;
  query: string | { query: string };
  datasource?: { type: string; uid: string };
}

interface Dashboard {
  schemaVersion: number;
  title: string;
  panels: GrafanaPanel[];
  templating: { list: GrafanaVariable[] };
}

const rules = (
  parse(readFileSync(ALERTS_FILE, 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }
).groups.flatMap((group) => group.rules);
const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;

/** Every panel, rows' nested ones included. */
function panelsOf(panels: readonly GrafanaPanel[]): GrafanaPanel[] {
  return panels.flatMap((panel) => [panel, ...panelsOf(panel.panels ?? [])]);
}

const dashboardPanels = panelsOf(dashboard.panels);
const dashboardExpressions = [
  ...dashboardPanels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
  ...dashboard.templating.list
    .filter((variable) => variable.type === 'query')
    .map((variable) =>
      grafanaVariableExpression(
        typeof variable.query === 'string' ? variable.query : variable.query.query,
      ),
    ),
];

/** Family names and types from the `# TYPE` lines of a scrape (families without samples too). */
function familiesOf(scrape: string): Map<string, string> {
  const families = new Map<string, string>();
  for (const [, name, type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(name, type);
  return families;
}

/** Whether `name` is a family, or a histogram's or summary's `_bucket`/`_sum`/`_count` series. */
function exported(name: string, families: Map<string, string>): boolean {
  if (families.has(name)) return true;
  const base = /^(.*)_(bucket|sum|count)$/.exec(name)?.[1];
  const type = base === undefined ? undefined : families.get(base);
  return type === 'histogram' || (type === 'summary' && !name.endsWith('_bucket'));
}

describe('the PromQL metric name extractor', () => {
  it.each([
    ['up{job="owlclaw-mcp-gateway"} == 0', ['up']],
    [
      'histogram_quantile(0.95, sum by (server, le) (rate(a_seconds_bucket{job="$job"}[$__rate_interval])))',
      ['a_seconds_bucket'],
    ],
    [
      'sum by (job) (rate(req_total{outcome=~"internal_error|timeout"}[5m])) / sum by (job) (rate(req_total[5m])) > 0.05',
      ['req_total'],
    ],
    ['min_over_time(backlog[5m]) > 0 and deriv(backlog[5m]) > 0', ['backlog']],
    ['a / on (instance) group_left (server) b offset 5m', ['a', 'b']],
    ['max by (client) (ratio) > 0.9 unless bool 1e3', ['ratio']],
  ])('reads %s', (expression, names) => {
    expect([...metricNamesOf(expression)].sort()).toEqual(names);
  });

  it('reads the expression of label_values(expr, label), not the label', () => {
    expect(grafanaVariableExpression('label_values(m{job="$job"}, instance)')).toBe(
      'm{job="$job"}',
    );
    expect(grafanaVariableExpression('label_values(job)')).toBe('');
  });
});

describe('deploy/prometheus/alerts.yml', () => {
  it('has an alert for every condition of #18, each with a severity, a summary and a description', () => {
    expect(rules.map((rule) => rule.alert).sort()).toEqual([
      'OwlClawBudgetAlmostSpent',
      'OwlClawGatewayDown',
      'OwlClawHighErrorRate',
      'OwlClawLedgerBacklogGrowing',
      'OwlClawLedgerUnwritable',
      'OwlClawLedgerWriteFailures',
      'OwlClawRedisDown',
      'OwlClawUpstreamDown',
    ]);
    for (const rule of rules) {
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({
        alert: rule.alert,
        severity: expect.stringMatching(/^(critical|warning)$/),
      });
      expect(rule.annotations?.summary?.trim()).toBeTruthy();
      expect(rule.annotations?.description?.trim()).toBeTruthy();
    }
  });
});

describe('deploy/grafana/owlclaw.json', () => {
  it('is a dashboard of schemaVersion 36 or later over a ${datasource} variable with job and instance', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const variables = new Map(dashboard.templating.list.map((v) => [v.name, v]));
    expect(variables.get('datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    for (const name of ['job', 'instance']) {
      expect(variables.get(name)).toMatchObject({
        type: 'query',
        datasource: { type: 'prometheus', uid: '${datasource}' },
      });
    }
    const queried = dashboardPanels.filter((panel) => panel.type !== 'row');
    expect(queried.length).toBeGreaterThan(10);
    for (const panel of queried) {
      expect({ panel: panel.title, datasource: panel.datasource }).toEqual({
        panel: panel.title,
        datasource: { type: 'prometheus', uid: '${datasource}' },
      });
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        // Every query is scoped to the chosen job and instances.
        expect(target.expr).toContain('job="$job", instance=~"$instance"');
      }
    }
    // Units on every time series, so an axis never shows a bare number of seconds or bytes.
    for (const panel of queried.filter((p) => p.type === 'timeseries')) {
      expect({ panel: panel.title, unit: panel.fieldConfig?.defaults?.unit }).toEqual({
        panel: panel.title,
        unit: expect.any(String),
      });
    }
  });
});

// Redis mode needs a redis-server of this suite's own (stopped at the end).
const available = servicesAvailable('dashboard and alerts', [
  programCheck('redis-server', 'redis-server'),
]);

(available ? describe : describe.skip)('metrics the rules and the dashboard read', () => {
  let dir: string;
  let redis: RedisServer;
  let gateway: HttpGatewayHandle;
  let families: Map<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-dashboard-'));
    writeEchoRegistryFile(dir);
    redis = await RedisServer.start(await freePort());
    gateway = await startHttpGateway({
      fixtures: true,
      config: {
        state: { driver: 'redis', redis_url: redis.url, key_prefix: 'owlclaw-dashboard:' },
        upstreams: { registry_dir: dir },
        governance: { clients: { acme: { quota: { monthly_budget: 10 } } } },
      },
    });
    await gateway.app.get(UpstreamToolsPublisher).settled();
    // One governed call with a cost (spend, budget ratio, decisions) and one upstream call.
    const session = await McpHttpSession.open(gateway.baseUrl, { 'x-mcp-client-id': 'acme' });
    expect(
      await session.request(1, 'tools/call', { name: 'gov_costly', arguments: {} }),
    ).toHaveProperty('result');
    expect(
      await session.request(2, 'tools/call', { name: 'echo__echo', arguments: { text: 'hi' } }),
    ).toHaveProperty('result');
    await session.close();
    families = familiesOf(await (await fetch(`${gateway.baseUrl}/metrics`)).text());
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    await redis?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exports every metric that an alert rule reads', () => {
    const names = new Set(rules.flatMap((rule) => [...metricNamesOf(rule.expr)]));
    expect([...names]).toEqual(
      expect.arrayContaining(['mcp_ledger_up', 'mcp_redis_up', 'mcp_budget_used_ratio']),
    );
    const missing = [...names].filter(
      (name) => !PROMETHEUS_OWN.has(name) && !exported(name, families),
    );
    expect(missing).toEqual([]);
  });

  it('exports every metric that a dashboard panel or variable reads', () => {
    const names = new Set(dashboardExpressions.flatMap((expr) => [...metricNamesOf(expr)]));
    expect([...names]).toEqual(
      expect.arrayContaining([
        'mcp_request_duration_seconds_bucket',
        'mcp_ledger_backlog_rows',
        'mcp_upstream_state',
        'mcp_tasks_queued',
      ]),
    );
    const missing = [...names].filter(
      (name) => !PROMETHEUS_OWN.has(name) && !exported(name, families),
    );
    expect(missing).toEqual([]);
  });

  it('reads the histograms through their _bucket series only where they are histograms', () => {
    expect(exported('mcp_request_duration_seconds_bucket', families)).toBe(true);
    expect(exported('mcp_requests_total_bucket', families)).toBe(false);
    expect(exported('mcp_no_such_metric', families)).toBe(false);
  });
});
