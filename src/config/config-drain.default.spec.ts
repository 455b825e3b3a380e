import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { effectiveDrainDelaySeconds } from './config-drain.default';
import { loadGatewayConfig } from './config.loader';

describe('effectiveDrainDelaySeconds', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LocalHost'])(
    'drops the default delay on the loopback bind %s',
    (host) => {
      expect(effectiveDrainDelaySeconds({ host, drain_delay_seconds: 5 }, false)).toBe(0);
    },
  );

  it.each(['0.0.0.0', '::', '10.0.0.7', 'gateway.internal'])(
    'keeps the default delay on the bind %s, which a load balancer can route to',
    (host) => {
      expect(effectiveDrainDelaySeconds({ host, drain_delay_seconds: 5 }, false)).toBe(5);
    },
  );

  it('keeps an explicit value whatever the bind', () => {
    expect(effectiveDrainDelaySeconds({ host: '127.0.0.1', drain_delay_seconds: 3 }, true)).toBe(3);
    expect(effectiveDrainDelaySeconds({ host: '0.0.0.0', drain_delay_seconds: 0 }, true)).toBe(0);
  });
});

describe('http.drain_delay_seconds through the loader', () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-drain-'));
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Loads an HTTP config from a real file, with an isolated cwd and env. */
  function drainDelay(http: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): number {
    const file = path.join(dir, 'mcp-server.yaml');
    const lines = Object.entries(http).map(([key, value]) => `    ${key}: ${String(value)}`);
    fs.writeFileSync(
      file,
      ['mcp_server:', '  transport: http', '  http:', ...lines, ''].join('\n'),
    );
    return loadGatewayConfig({ configPath: file, cwd: dir, env }).http.drain_delay_seconds;
  }

  it('is 0 on a loopback host, the default one included, 5 on all interfaces', () => {
    expect(drainDelay({ host: "'127.0.0.1'" })).toBe(0);
    expect(drainDelay({ host: "'::1'" })).toBe(0);
    expect(drainDelay({})).toBe(0);
    expect(drainDelay({ host: "'0.0.0.0'" })).toBe(5);
  });

  it('keeps a value set in the file, even one equal to the default', () => {
    expect(drainDelay({ host: "'127.0.0.1'", drain_delay_seconds: 5 })).toBe(5);
    expect(drainDelay({ host: "'127.0.0.1'", drain_delay_seconds: 2 })).toBe(2);
    expect(drainDelay({ host: "'0.0.0.0'", drain_delay_seconds: 0 })).toBe(0);
  });

  it('keeps a value set in the environment, over a loopback host from a flag', () => {
    const file = path.join(dir, 'empty.yaml');
    fs.writeFileSync(file, 'mcp_server:\n  transport: http\n');
    const load = (env: NodeJS.ProcessEnv) =>
      loadGatewayConfig({ configPath: file, cwd: dir, env, overrides: { http: { host: '::1' } } })
        .http.drain_delay_seconds;
    expect(load({})).toBe(0);
    expect(load({ MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '4' })).toBe(4);
  });

  it('checks the default it resolved against the shutdown deadline', () => {
    const env = { MCP_SERVER_LIMITS_SHUTDOWN_DEADLINE_SECONDS: '3' };
    expect(drainDelay({ host: "'127.0.0.1'" }, env)).toBe(0);
    expect(() => drainDelay({ host: "'0.0.0.0'" }, env)).toThrow(
      /mcp_server\.http\.drain_delay_seconds: must be less than mcp_server\.limits\.shutdown_deadline_seconds \(3\)/,
    );
  });
});
