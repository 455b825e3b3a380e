import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { ConfigValidationError } from './config-validation.error';
import { loadGatewayConfig } from './config.loader';
import { AlertsConfig } from './gateway-config';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alerts-config-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function loadAlerts(alerts: unknown, env: NodeJS.ProcessEnv = {}): AlertsConfig {
  const file = path.join(dir, 'mcp-server.yaml');
  fs.writeFileSync(file, stringify({ mcp_server: { alerts } }));
  return loadGatewayConfig({ configPath: file, cwd: dir, env }).alerts;
}

function problemsOf(alerts: unknown, env: NodeJS.ProcessEnv = {}): readonly string[] {
  try {
    loadAlerts(alerts, env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('alerts configuration', () => {
  it('is off by default, every rule on, no webhook', () => {
    expect(loadGatewayConfig({ cwd: dir, env: {} }).alerts).toEqual({
      enabled: false,
      evaluation_interval_seconds: 15,
      repeat_interval_seconds: 14_400,
      max_notifications_per_minute: 30,
      webhooks: [],
      rules: {
        ledger_unwritable: { enabled: true },
        redis_down: { enabled: true },
        error_rate: { enabled: true, threshold: 0.05, window_seconds: 300, min_requests: 20 },
        upstream_down: { enabled: true, minutes: 5 },
        budget: { enabled: true, percent: 90 },
      },
    });
  });

  it('takes webhooks as mappings or bare URLs, filling in the defaults', () => {
    const alerts = loadAlerts({
      enabled: true,
      webhooks: [
        'https://hooks.example.com/a',
        { url: 'http://127.0.0.1:9000/b', headers: { 'X-Team': 'ops' }, max_retries: 0 },
      ],
    });
    expect(alerts.webhooks).toEqual([
      { url: 'https://hooks.example.com/a', headers: {}, timeout_ms: 5000, max_retries: 3 },
      {
        url: 'http://127.0.0.1:9000/b',
        headers: { 'X-Team': 'ops' },
        timeout_ms: 5000,
        max_retries: 0,
      },
    ]);
  });

  it('reads MCP_SERVER_ALERTS_WEBHOOKS as comma-separated URLs', () => {
    const config = loadGatewayConfig({
      cwd: dir,
      env: {
        MCP_SERVER_ALERTS_ENABLED: 'true',
        MCP_SERVER_ALERTS_WEBHOOKS: 'https://a.example.com/x, https://b.example.com/y',
        MCP_SERVER_ALERTS_RULES_ERROR_RATE_THRESHOLD: '0.2',
      },
    });
    expect(config.alerts.webhooks.map((w) => w.url)).toEqual([
      'https://a.example.com/x',
      'https://b.example.com/y',
    ]);
    expect(config.alerts.rules.error_rate.threshold).toBe(0.2);
  });

  it('names the key of every value out of bounds', () => {
    const problems = problemsOf({
      evaluation_interval_seconds: 0,
      max_notifications_per_minute: 0,
      webhooks: [{ url: 'https://a.example.com', timeout_ms: 10, tiemout_ms: 5 }, 42],
      rules: {
        error_rate: { threshold: 1.5, min_requests: 0 },
        budget: { percent: 0 },
        upstream_down: { minutes: -1 },
        redis_down: { enabled: 'yes' },
      },
    });
    const text = problems.join('\n');
    expect(text).toContain(
      'mcp_server.alerts.evaluation_interval_seconds: must not be less than 1',
    );
    expect(text).toContain(
      'mcp_server.alerts.max_notifications_per_minute: must not be less than 1',
    );
    expect(text).toContain('mcp_server.alerts.webhooks.0.timeout_ms: must not be less than 100');
    expect(text).toContain(
      'mcp_server.alerts.webhooks.0.tiemout_ms: is not a known configuration key',
    );
    expect(text).toMatch(/mcp_server\.alerts\.webhooks(\.1)?: .*must be either object or array/);
    expect(text).toContain(
      'mcp_server.alerts.rules.error_rate.threshold: must not be greater than 1',
    );
    expect(text).toContain(
      'mcp_server.alerts.rules.error_rate.min_requests: must not be less than 1',
    );
    expect(text).toContain('mcp_server.alerts.rules.budget.percent: must not be less than 1');
    expect(text).toContain(
      'mcp_server.alerts.rules.upstream_down.minutes: must not be less than 0',
    );
    expect(text).toContain('mcp_server.alerts.rules.redis_down.enabled: must be a boolean value');
  });

  describe('limits (hostile or mistaken input)', () => {
    it('refuses more than 8 webhooks, naming the limit', () => {
      const webhooks = Array.from({ length: 9 }, (_, i) => `https://h${i}.example.com/`);
      expect(problemsOf({ webhooks })).toContain(
        'mcp_server.alerts.webhooks: must have at most 8 entries (from ' +
          path.join(dir, 'mcp-server.yaml') +
          ')',
      );
    });

    it('refuses more than 16 headers, a bad header name and an oversized URL', () => {
      const headers = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`X-H${i}`, 'v']));
      const text = problemsOf({
        webhooks: [
          { url: 'https://a.example.com', headers },
          { url: 'https://a.example.com', headers: { 'Bad Name': 'v' } },
          { url: `https://a.example.com/${'x'.repeat(2048)}` },
        ],
      }).join('\n');
      expect(text).toContain(
        'mcp_server.alerts.webhooks.0.headers: has 17 entries; at most 16 are allowed',
      );
      expect(text).toContain(
        'mcp_server.alerts.webhooks.1.headers: key "Bad Name" is not a valid HTTP header name',
      );
      expect(text).toContain(
        'mcp_server.alerts.webhooks.2.url: must be shorter than or equal to 2048 characters',
      );
    });
  });

  describe('references and cross-key checks', () => {
    it('resolves nothing while alerts are off, so a staged config still loads', () => {
      const alerts = loadAlerts({ webhooks: ['https://hooks.example.com/${ENV:HOOK_TOKEN}'] });
      expect(alerts.webhooks[0].url).toBe('https://hooks.example.com/${ENV:HOOK_TOKEN}');
    });

    it('keeps references as written (secrets stay out of the config) once they resolve', () => {
      const alerts = loadAlerts(
        {
          enabled: true,
          webhooks: [
            {
              url: 'https://hooks.example.com/${ENV:HOOK_TOKEN}',
              headers: { Authorization: 'Bearer ${ENV:HOOK_BEARER}' },
            },
          ],
        },
        { HOOK_TOKEN: 't0k3n', HOOK_BEARER: 's3cret' },
      );
      expect(alerts.webhooks[0].url).toBe('https://hooks.example.com/${ENV:HOOK_TOKEN}');
      expect(alerts.webhooks[0].headers.Authorization).toBe('Bearer ${ENV:HOOK_BEARER}');
    });

    it('refuses, with alerts on, references that are not set and URLs that are not http(s)', () => {
      const problems = problemsOf(
        {
          enabled: true,
          webhooks: [
            {
              url: 'https://hooks.example.com/',
              headers: { Authorization: 'Bearer ${ENV:MISSING}' },
            },
            'ftp://files.example.com/${ENV:PATH_PART}',
            { url: 'https://a.example.com/', headers: { 'X-Injected': '${ENV:TWO_LINES}' } },
          ],
        },
        { PATH_PART: 'x', TWO_LINES: 'a\r\nX-Other: b' },
      );
      const text = problems.join('\n');
      expect(text).toContain(
        'mcp_server.alerts.webhooks.0.headers.Authorization: ${ENV:MISSING} not set (no default given)',
      );
      expect(text).toContain(
        'mcp_server.alerts.webhooks.1.url: must be an http:// or https:// URL once references are resolved',
      );
      expect(text).toContain(
        'mcp_server.alerts.webhooks.2.headers.X-Injected: must not contain line breaks or NUL characters',
      );
      // Never the secret itself.
      expect(text).not.toContain('X-Other');
    });

    it('refuses an error-rate window shorter than the evaluation interval', () => {
      expect(
        problemsOf({
          evaluation_interval_seconds: 60,
          rules: { error_rate: { window_seconds: 30 } },
        }).join('\n'),
      ).toContain(
        'mcp_server.alerts.rules.error_rate.window_seconds: must be at least mcp_server.alerts.evaluation_interval_seconds (60)',
      );
    });
  });
});
