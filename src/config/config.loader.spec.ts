import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// The loader is imported before anything from Nest on purpose: the CLI does the same, so this
// proves the config code does not depend on Nest having installed reflect-metadata.
import { ENV_BINDINGS } from './config-env.reader';
import {
  loadGatewayConfig,
  loadGatewayConfigWithSource,
  LoadGatewayConfigOptions,
  resolveConfigPath,
} from './config.loader';
import { Test } from '@nestjs/testing';
import { userDataDir } from './config-paths';
import { ConfigValidationError } from './config-validation.error';
import { GATEWAY_CONFIG } from './config.constants';
import { DEFAULT_CONFIG } from './config.defaults';
import { summarizeConfig } from './config.summary';
import { GatewayConfig } from './gateway-config';
import { GatewayConfigModule } from './gateway-config.module';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SHIPPED_CONFIG = path.join(REPO_ROOT, 'config', 'mcp-server.yaml');

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-config-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeFile(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Loads with an isolated cwd and env so the developer's machine cannot leak in. */
function load(options: LoadGatewayConfigOptions = {}): GatewayConfig {
  return loadGatewayConfig({ cwd: dir, env: {}, ...options });
}

/** DEFAULT_CONFIG as loaded in stdio mode with no file: bundled skills and registry, ledger in the user's data dir. */
function resolvedDefaults(env: NodeJS.ProcessEnv = {}): GatewayConfig {
  const cfg = structuredClone<GatewayConfig>(DEFAULT_CONFIG);
  cfg.resources.skills_dir = path.join(REPO_ROOT, 'capabilities');
  cfg.upstreams.registry_dir = path.join(REPO_ROOT, 'config', 'mcp.d');
  cfg.ledger.sqlite_path = path.join(userDataDir(env), 'ledger.db');
  // The default bind is loopback, where an unset drain delay is 0 (config-drain.default.ts).
  cfg.http.drain_delay_seconds = 0;
  return cfg;
}

/** Runs the loader expecting failure and returns the error for assertions. */
function loadError(options: LoadGatewayConfigOptions = {}): ConfigValidationError {
  try {
    load(options);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error;
    throw error;
  }
  throw new Error('expected loadGatewayConfig to throw ConfigValidationError');
}

describe('loadGatewayConfig', () => {
  describe('sources', () => {
    it('returns the defaults when there is no file, env or override', () => {
      const loaded = loadGatewayConfigWithSource({ cwd: dir, env: {} });
      expect(loaded.config).toStrictEqual(resolvedDefaults());
      expect(loaded.source).toBeUndefined();
      expect(loaded.ignoredEnvVars).toEqual([]);
    });

    it('loads the shipped config/mcp-server.yaml to exactly the defaults', () => {
      const loaded = loadGatewayConfigWithSource({ configPath: SHIPPED_CONFIG, env: {} });
      expect(loaded.config).toStrictEqual(resolvedDefaults());
      expect(loaded.source).toBe(SHIPPED_CONFIG);
    });

    it('picks config/mcp-server.yaml relative to cwd when no path is given', () => {
      writeFile('config/mcp-server.yaml', 'mcp_server:\n  http:\n    port: 7100\n');
      const loaded = loadGatewayConfigWithSource({ cwd: dir, env: {} });
      expect(loaded.config.http.port).toBe(7100);
      expect(loaded.source).toBe(path.join(dir, 'config', 'mcp-server.yaml'));
    });

    it('prefers MCP_SERVER_CONFIG over the default path', () => {
      writeFile('config/mcp-server.yaml', 'mcp_server:\n  http:\n    port: 7100\n');
      const other = writeFile('other.yaml', 'mcp_server:\n  http:\n    port: 7200\n');
      const loaded = loadGatewayConfigWithSource({ cwd: dir, env: { MCP_SERVER_CONFIG: other } });
      expect(loaded.config.http.port).toBe(7200);
      expect(loaded.source).toBe(other);
    });

    it('merges the file key by key over the defaults', () => {
      const file = writeFile(
        'partial.yaml',
        'mcp_server:\n  http:\n    cors:\n      allowed_origins: ["https://app.example.com"]\n',
      );
      const cfg = load({ configPath: file });
      expect(cfg.http.cors.allowed_origins).toEqual(['https://app.example.com']);
      expect(cfg.http.cors.allowed_methods).toEqual(DEFAULT_CONFIG.http.cors.allowed_methods);
      expect(cfg.http.port).toBe(8080);
    });

    it('accepts the seed §9.1 example file without its two removed keys', () => {
      // The seed's sample, upper-case level and fractional budgets included; the keys nothing
      // honours (tools.cache_ttl_seconds, logging.output) are refused, see "removed keys".
      const file = writeFile(
        'seed.yaml',
        [
          'mcp_server:',
          '  transport: stdio',
          '  http:',
          '    host: "0.0.0.0"',
          '    port: 8080',
          '    cors:',
          '      enabled: true',
          '      allowed_origins:',
          '        - "http://localhost:3000"',
          '        - "https://app.example.com"',
          '    tls:',
          '      enabled: false',
          '      cert_file: "/path/to/cert.pem"',
          '      key_file: "/path/to/key.pem"',
          '  tools:',
          '    default_timeout_seconds: 300',
          '    async_threshold_seconds: 30',
          '  resources:',
          '    skills_dir: "./capabilities"',
          '    cache_ttl_seconds: 600',
          '  governance:',
          '    enabled: true',
          '    default_quota:',
          '      monthly_budget: 500.0',
          '      max_calls_per_minute: 60',
          '      max_calls_per_day: 1000',
          '      max_cost_per_call: 10.0',
          '  logging:',
          '    level: INFO',
          '    format: json',
          '',
        ].join('\n'),
      );
      const cfg = load({ configPath: file });
      expect(cfg.resources.skills_dir).toBe(path.join(dir, 'capabilities'));
      expect(cfg.http.cors.allowed_origins).toEqual([
        'http://localhost:3000',
        'https://app.example.com',
      ]);
      // TLS is off, so the placeholder paths need not exist.
      expect(cfg.http.tls).toEqual({
        enabled: false,
        cert_file: '/path/to/cert.pem',
        key_file: '/path/to/key.pem',
      });
      expect(cfg.logging.level).toBe('info');
    });

    it('returns a fresh copy each time and keeps DEFAULT_CONFIG frozen', () => {
      const first = load();
      first.http.port = 1;
      first.http.cors.allowed_origins.push('https://x.example');
      expect(load().http.port).toBe(8080);
      expect(DEFAULT_CONFIG.http.cors.allowed_origins).toEqual([]);
      expect(Object.isFrozen(DEFAULT_CONFIG.http.cors.allowed_origins)).toBe(true);
      expect(() => {
        (DEFAULT_CONFIG.http as { port: number }).port = 1;
      }).toThrow(TypeError);
    });
  });

  describe('environment', () => {
    it('converts numbers, booleans and comma-separated lists by the key type', () => {
      const cfg = load({
        env: {
          MCP_SERVER_HTTP_PORT: '9090',
          MCP_SERVER_HTTP_CORS_ENABLED: 'no',
          MCP_SERVER_DEV_MODE: 'YES',
          MCP_SERVER_HTTP_CORS_ALLOWED_ORIGINS: ' https://a.example , https://b.example:8443 ,',
          MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_MINUTE: '5',
          MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MONTHLY_BUDGET: '12.5',
          MCP_SERVER_HTTP_BODY_LIMIT_BYTES: '1024',
          MCP_SERVER_LOGGING_LEVEL: 'debug',
        },
      });
      expect(cfg.http.port).toBe(9090);
      expect(cfg.http.cors.enabled).toBe(false);
      expect(cfg.dev_mode).toBe(true);
      expect(cfg.http.cors.allowed_origins).toEqual([
        'https://a.example',
        'https://b.example:8443',
      ]);
      expect(cfg.governance.default_quota.max_calls_per_minute).toBe(5);
      expect(cfg.governance.default_quota.monthly_budget).toBe(12.5);
      expect(cfg.http.body_limit_bytes).toBe(1024);
      expect(cfg.logging.level).toBe('debug');
    });

    it('maps an empty list variable to an empty list', () => {
      const cfg = load({ env: { MCP_SERVER_HTTP_CORS_ALLOWED_METHODS: '' } });
      expect(cfg.http.cors.allowed_methods).toEqual([]);
    });

    it('honours each seed §9.2 variable', () => {
      const cfg = load({
        env: {
          MCP_SERVER_TRANSPORT: 'http',
          MCP_SERVER_HTTP_PORT: '8181',
          MCP_SERVER_TOOLS_TIMEOUT: '42',
          MCP_SERVER_SKILLS_DIR: '/srv/skills',
          MCP_SERVER_GOVERNANCE_ENABLED: 'false',
        },
      });
      expect(cfg.transport).toBe('http');
      expect(cfg.http.port).toBe(8181);
      expect(cfg.tools.default_timeout_seconds).toBe(42);
      expect(cfg.resources.skills_dir).toBe('/srv/skills');
      expect(cfg.governance.enabled).toBe(false);
    });

    it('rejects an alias and its systematic name set to different values', () => {
      const error = loadError({
        env: { MCP_SERVER_TOOLS_TIMEOUT: '42', MCP_SERVER_TOOLS_DEFAULT_TIMEOUT_SECONDS: '43' },
      });
      expect(error.message).toContain('mcp_server.tools.default_timeout_seconds');
      expect(error.message).toContain('MCP_SERVER_TOOLS_TIMEOUT');
      expect(error.message).toContain('MCP_SERVER_TOOLS_DEFAULT_TIMEOUT_SECONDS');
    });

    it('names the variable when a value has the wrong type', () => {
      const error = loadError({ env: { MCP_SERVER_HTTP_PORT: 'eighty' } });
      expect(error.problems).toEqual([
        'mcp_server.http.port: must be a number, got "eighty" (from env MCP_SERVER_HTTP_PORT)',
      ]);
      const bool = loadError({ env: { MCP_SERVER_GOVERNANCE_ENABLED: 'maybe' } });
      expect(bool.message).toContain('(from env MCP_SERVER_GOVERNANCE_ENABLED)');
    });

    it('names the variable when a converted value breaks a constraint', () => {
      const error = loadError({ env: { MCP_SERVER_HTTP_PORT: '70000' } });
      expect(error.problems).toEqual([
        'mcp_server.http.port: must not be greater than 65535 (from env MCP_SERVER_HTTP_PORT)',
      ]);
    });

    it('bounds upstreams.max_children, naming the variable', () => {
      expect(load({ env: { MCP_SERVER_UPSTREAMS_MAX_CHILDREN: '4' } }).upstreams.max_children).toBe(
        4,
      );
      expect(loadError({ env: { MCP_SERVER_UPSTREAMS_MAX_CHILDREN: '0' } }).problems).toEqual([
        'mcp_server.upstreams.max_children: must not be less than 1 (from env MCP_SERVER_UPSTREAMS_MAX_CHILDREN)',
      ]);
    });

    it('ignores unknown MCP_SERVER_* variables but reports their names', () => {
      const loaded = loadGatewayConfigWithSource({
        cwd: dir,
        env: {
          MCP_SERVER_HTTP_PROT: '1',
          MCP_SERVER_ADMIN_TOKEN: 'secret-value-of-32-characters-00',
          OTHER_VAR: 'x',
        },
      });
      expect(loaded.config).toStrictEqual(resolvedDefaults());
      expect(loaded.ignoredEnvVars).toEqual(['MCP_SERVER_HTTP_PROT']);
    });

    it('refuses an admin or metrics token shorter than 32 characters, naming the variable', () => {
      expect(
        loadError({
          env: { MCP_SERVER_ADMIN_TOKEN: 'x', MCP_SERVER_METRICS_TOKEN: 'a'.repeat(31) },
        }).problems,
      ).toEqual([
        'MCP_SERVER_ADMIN_TOKEN: is 1 characters long; it must be at least 32 (for example: openssl rand -hex 32) (from env MCP_SERVER_ADMIN_TOKEN)',
        'MCP_SERVER_METRICS_TOKEN: is 31 characters long; it must be at least 32 (for example: openssl rand -hex 32) (from env MCP_SERVER_METRICS_TOKEN)',
      ]);
      const long = {
        MCP_SERVER_ADMIN_TOKEN: 'a'.repeat(32),
        MCP_SERVER_METRICS_TOKEN: 'b'.repeat(64),
      };
      expect(load({ env: long })).toStrictEqual(resolvedDefaults());
    });

    it('binds every key to exactly one systematic variable', () => {
      expect(ENV_BINDINGS.get('MCP_SERVER_HTTP_CORS_ALLOWED_ORIGINS')).toEqual({
        path: ['http', 'cors', 'allowed_origins'],
        kind: 'string[]',
      });
      expect(ENV_BINDINGS.get('MCP_SERVER_HTTP_TLS_CERT_FILE')?.path).toEqual([
        'http',
        'tls',
        'cert_file',
      ]);
      expect(ENV_BINDINGS.has('MCP_SERVER_CONFIG')).toBe(false);
      // Every leaf of DEFAULT_CONFIG plus the two optional TLS file keys, each bound once.
      const leaves = (value: unknown): number =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.values(value).reduce((sum: number, child) => sum + leaves(child), 0)
          : 1;
      expect(ENV_BINDINGS.size).toBe(leaves(DEFAULT_CONFIG) + 2);
      const paths = [...ENV_BINDINGS.values()].map((binding) => binding.path.join('.'));
      expect(new Set(paths).size).toBe(paths.length);
    });
  });

  describe('precedence', () => {
    it('applies defaults < file < env < overrides', () => {
      const file = writeFile(
        'p.yaml',
        'mcp_server:\n  http:\n    port: 7000\n    host: "127.0.0.1"\n  resources:\n    cache_ttl_seconds: 11\n',
      );
      const env = { MCP_SERVER_HTTP_PORT: '7001', MCP_SERVER_RESOURCES_CACHE_TTL_SECONDS: '12' };

      expect(load({ configPath: file }).http.port).toBe(7000);

      const withEnv = load({ configPath: file, env });
      expect(withEnv.http.port).toBe(7001);
      expect(withEnv.http.host).toBe('127.0.0.1');
      expect(withEnv.resources.cache_ttl_seconds).toBe(12);

      const all = load({ configPath: file, env, overrides: { http: { port: 7002 } } });
      expect(all.http.port).toBe(7002);
      expect(all.http.host).toBe('127.0.0.1');
      expect(all.resources.cache_ttl_seconds).toBe(12);
    });

    it('treats undefined override members as not given', () => {
      const cfg = load({
        env: { MCP_SERVER_HTTP_PORT: '7001' },
        overrides: { transport: undefined, http: { port: undefined } },
      });
      expect(cfg.http.port).toBe(7001);
      expect(cfg.transport).toBe('stdio');
    });

    it('blames the command line for an invalid override', () => {
      const error = loadError({ overrides: { http: { port: -1 } } });
      expect(error.problems).toEqual([
        'mcp_server.http.port: must not be less than 0 (from command-line options)',
      ]);
    });
  });

  describe('validation', () => {
    it('refuses an HTTP drain delay as long as the shutdown deadline, naming both keys', () => {
      const error = loadError({
        overrides: { transport: 'http' },
        env: {
          MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '30',
          MCP_SERVER_LIMITS_SHUTDOWN_DEADLINE_SECONDS: '30',
        },
      });
      expect(error.problems).toEqual([
        'mcp_server.http.drain_delay_seconds: must be less than mcp_server.limits.shutdown_deadline_seconds (30): the deadline counts from the same signal (from env MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS)',
      ]);
    });

    it('ignores the drain delay in stdio mode and refuses a negative one', () => {
      const env = {
        MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '9',
        MCP_SERVER_LIMITS_SHUTDOWN_DEADLINE_SECONDS: '3',
      };
      expect(load({ overrides: { transport: 'stdio' }, env }).http.drain_delay_seconds).toBe(9);
      const error = loadError({ env: { MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '-1' } });
      expect(error.message).toContain('mcp_server.http.drain_delay_seconds');
    });

    it('rejects a bad port in the file, naming key and file', () => {
      const file = writeFile('bad-port.yaml', 'mcp_server:\n  http:\n    port: 70000\n');
      const error = loadError({ configPath: file });
      expect(error).toBeInstanceOf(ConfigValidationError);
      expect(error.message).toContain('mcp_server.http.port');
      expect(error.problems).toEqual([
        `mcp_server.http.port: must not be greater than 65535 (from ${file})`,
      ]);
    });

    it('reports a non-integer port as a type problem, not a range problem', () => {
      const file = writeFile('str-port.yaml', 'mcp_server:\n  http:\n    port: "8080"\n');
      expect(loadError({ configPath: file }).problems).toEqual([
        `mcp_server.http.port: must be an integer number (from ${file})`,
      ]);
    });

    it('rejects an unknown key, names it and suggests the intended one', () => {
      const file = writeFile('typo.yaml', 'mcp_server:\n  http:\n    prot: 8080\n');
      const error = loadError({ configPath: file });
      expect(error.problems).toEqual([
        `mcp_server.http.prot: is not a known configuration key (did you mean "port"?) (from ${file})`,
      ]);
    });

    describe('removed keys', () => {
      it('refuses tools.cache_ttl_seconds, naming the keys that control tool-list caching', () => {
        const file = writeFile(
          'tools-ttl.yaml',
          'mcp_server:\n  tools:\n    cache_ttl_seconds: 300\n',
        );
        expect(loadError({ configPath: file }).problems).toEqual([
          `mcp_server.tools.cache_ttl_seconds: is no longer a configuration key: the gateway's own tool list is rebuilt whenever its tools change, never by time; use mcp_server.upstreams.tools_cache_ttl_seconds for upstream tool lists, or mcp_server.server.cache_ttl_seconds for the freshness hint sent to clients (from ${file})`,
        ]);
      });

      it('refuses logging.output, saying logs go to stderr and how to send them elsewhere', () => {
        const file = writeFile('log-output.yaml', 'mcp_server:\n  logging:\n    output: file\n');
        expect(loadError({ configPath: file }).problems).toEqual([
          `mcp_server.logging.output: is no longer a configuration key: logs always go to stderr (in stdio mode stdout carries the MCP protocol); redirect stderr to send them elsewhere (from ${file})`,
        ]);
      });

      it('reports both at once, alongside other problems, and not again as unknown keys', () => {
        const file = writeFile(
          'both.yaml',
          [
            'mcp_server:',
            '  tools:',
            '    cache_ttl_seconds: 300',
            '  logging:',
            '    level: info',
            '    output: stderr',
            '  http:',
            '    port: 70000',
            '',
          ].join('\n'),
        );
        const { problems } = loadError({ configPath: file });
        expect(problems).toHaveLength(3);
        expect(problems[0]).toMatch(/^mcp_server\.tools\.cache_ttl_seconds: is no longer/);
        expect(problems[1]).toMatch(/^mcp_server\.logging\.output: is no longer/);
        expect(problems[2]).toBe(
          `mcp_server.http.port: must not be greater than 65535 (from ${file})`,
        );
      });

      it('keeps the like-named keys that do something', () => {
        const file = writeFile(
          'kept.yaml',
          [
            'mcp_server:',
            '  server:',
            '    cache_ttl_seconds: 5',
            '  resources:',
            '    cache_ttl_seconds: 7',
            '  upstreams:',
            '    tools_cache_ttl_seconds: 9',
            '',
          ].join('\n'),
        );
        const cfg = load({ configPath: file });
        expect(cfg.server.cache_ttl_seconds).toBe(5);
        expect(cfg.resources.cache_ttl_seconds).toBe(7);
        expect(cfg.upstreams.tools_cache_ttl_seconds).toBe(9);
      });
    });

    it('rejects keys outside mcp_server', () => {
      const file = writeFile('top.yaml', 'mcp_server: {}\ntransport: http\nextra: 1\n');
      const error = loadError({ configPath: file });
      expect(error.message).toContain('transport: top-level key not allowed; it belongs under');
      expect(error.message).toContain('extra: top-level key not allowed');
    });

    it('rejects a section given as a scalar', () => {
      const file = writeFile('scalar.yaml', 'mcp_server:\n  http: 8080\n');
      expect(loadError({ configPath: file }).problems).toEqual([
        `mcp_server.http: must be a mapping of its sub-keys, found a number (8080) (from ${file})`,
      ]);
    });

    it('treats sections whose keys are all commented out as empty', () => {
      const file = writeFile(
        'commented.yaml',
        'mcp_server:\n  http:\n    tls:\n      # enabled: true\n  tools:\n',
      );
      expect(load({ configPath: file })).toStrictEqual(resolvedDefaults());
      const bare = writeFile('bare.yaml', 'mcp_server:\n');
      expect(load({ configPath: bare })).toStrictEqual(resolvedDefaults());
    });

    it('still rejects an empty value for a single key', () => {
      const file = writeFile('null-port.yaml', 'mcp_server:\n  http:\n    port:\n');
      expect(loadError({ configPath: file }).problems).toEqual([
        `mcp_server.http.port: must be an integer number (from ${file})`,
      ]);
    });

    it('rejects __proto__ keys without polluting prototypes', () => {
      const file = writeFile('proto.yaml', 'mcp_server:\n  __proto__:\n    polluted: true\n');
      const error = loadError({ configPath: file });
      expect(error.message).toContain('mcp_server.__proto__: is not a known configuration key');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('names file, line and column of a YAML syntax error', () => {
      const file = writeFile('broken.yaml', 'mcp_server:\n  http:\n    port: 8080: 1\n');
      const error = loadError({ configPath: file });
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]).toMatch(
        new RegExp(`^${escape(file)}: YAML syntax error at line 3, column \\d+: `),
      );
    });

    it('rejects duplicate keys as a YAML error', () => {
      const file = writeFile('dup.yaml', 'mcp_server:\n  transport: http\n  transport: stdio\n');
      expect(loadError({ configPath: file }).message).toContain('line 3');
    });

    it('rejects a file without an mcp_server section', () => {
      const file = writeFile('empty.yaml', '# nothing here\n');
      expect(loadError({ configPath: file }).message).toContain('mcp_server');
    });

    it('reports every problem at once', () => {
      const file = writeFile(
        'many.yaml',
        'mcp_server:\n  transport: carrier-pigeon\n  logging:\n    level: LOUD\n',
      );
      const error = loadError({ configPath: file, env: { MCP_SERVER_HTTP_PORT: 'x' } });
      expect(error.problems).toHaveLength(3);
      expect(error.message).toContain('mcp_server.transport: must be one of the following values');
      expect(error.message).toContain('mcp_server.logging.level: must be one of debug, info');
      expect(error.message).toContain('MCP_SERVER_HTTP_PORT');
    });

    it('rejects an origin with a trailing slash', () => {
      const error = loadError({
        env: { MCP_SERVER_HTTP_CORS_ALLOWED_ORIGINS: 'https://app.example.com/' },
      });
      expect(error.message).toContain('mcp_server.http.cors.allowed_origins: each value must be');
    });

    it('rejects negative budgets and zero timeouts', () => {
      const error = loadError({
        overrides: {
          governance: { default_quota: { monthly_budget: -1 } },
          tools: { default_timeout_seconds: 0 },
        },
      });
      expect(error.problems).toEqual([
        'mcp_server.tools.default_timeout_seconds: must not be less than 1 (from command-line options)',
        'mcp_server.governance.default_quota.monthly_budget: must not be less than 0 (from command-line options)',
      ]);
    });

    it('normalises the seed log level WARNING to warn, from file and env', () => {
      const file = writeFile('warn.yaml', 'mcp_server:\n  logging:\n    level: WARNING\n');
      expect(load({ configPath: file }).logging.level).toBe('warn');
      expect(load({ env: { MCP_SERVER_LOGGING_LEVEL: 'Error' } }).logging.level).toBe('error');
    });
  });

  describe('TLS files', () => {
    it('requires cert_file and key_file when TLS is enabled', () => {
      const file = writeFile('tls.yaml', 'mcp_server:\n  http:\n    tls:\n      enabled: true\n');
      const error = loadError({ configPath: file });
      expect(error.problems).toEqual([
        `mcp_server.http.tls.cert_file: is required when mcp_server.http.tls.enabled is true (from ${file})`,
        `mcp_server.http.tls.key_file: is required when mcp_server.http.tls.enabled is true (from ${file})`,
      ]);
    });

    it('requires the files to exist', () => {
      writeFile('certs/server.crt', 'cert');
      const error = loadError({
        env: {
          MCP_SERVER_HTTP_TLS_ENABLED: 'true',
          MCP_SERVER_HTTP_TLS_CERT_FILE: 'certs/server.crt',
          MCP_SERVER_HTTP_TLS_KEY_FILE: 'certs/missing.key',
        },
      });
      expect(error.problems).toEqual([
        `mcp_server.http.tls.key_file: file ${path.join(dir, 'certs', 'missing.key')} does not exist (from env MCP_SERVER_HTTP_TLS_KEY_FILE)`,
      ]);
    });

    it('accepts existing files, resolving relative paths against cwd', () => {
      writeFile('certs/server.crt', 'cert');
      writeFile('certs/server.key', 'key');
      const cfg = load({
        overrides: {
          http: {
            tls: { enabled: true, cert_file: 'certs/server.crt', key_file: 'certs/server.key' },
          },
        },
      });
      expect(cfg.http.tls).toEqual({
        enabled: true,
        cert_file: path.join(dir, 'certs', 'server.crt'),
        key_file: path.join(dir, 'certs', 'server.key'),
      });
    });

    it('rejects a directory given as a file', () => {
      fs.mkdirSync(path.join(dir, 'certs'));
      writeFile('k.pem', 'key');
      const error = loadError({
        overrides: { http: { tls: { enabled: true, cert_file: 'certs', key_file: 'k.pem' } } },
      });
      expect(error.message).toContain('mcp_server.http.tls.cert_file');
      expect(error.message).toContain('is not a regular file');
    });
  });

  describe('config path', () => {
    it('names an explicit path that does not exist', () => {
      const error = loadError({ configPath: 'nope/missing.yaml' });
      expect(error.message).toContain('nope/missing.yaml');
      expect(error.message).toContain(path.join(dir, 'nope', 'missing.yaml'));
    });

    it('names a missing MCP_SERVER_CONFIG file and the variable', () => {
      const error = loadError({ env: { MCP_SERVER_CONFIG: '/no/such/file.yaml' } });
      expect(error.message).toContain('/no/such/file.yaml');
      expect(error.message).toContain('MCP_SERVER_CONFIG');
    });

    it('resolveConfigPath reports the file that would be read', () => {
      expect(resolveConfigPath({ cwd: dir, env: {} })).toBeUndefined();
      const file = writeFile('config/mcp-server.yaml', 'mcp_server: {}\n');
      expect(resolveConfigPath({ cwd: dir, env: {} })).toBe(file);
      expect(() => resolveConfigPath({ cwd: dir, env: {}, configPath: 'x.yaml' })).toThrow(
        ConfigValidationError,
      );
    });
  });
});

describe('summarizeConfig', () => {
  it('summarises an http config without secrets', () => {
    const cfg = load({
      overrides: {
        transport: 'http',
        http: { host: '::1', port: 9000, cors: { allowed_origins: ['https://a.example'] } },
      },
    });
    const summary = summarizeConfig(cfg, '/etc/owlclaw/mcp-server.yaml');
    expect(summary).toEqual({
      transport: 'http',
      listen: '[::1]:9000',
      tls: 'off',
      cors: 'on',
      cors_origins: 1,
      skills_dir: path.join(REPO_ROOT, 'capabilities'),
      default_timeout_seconds: 300,
      governance: 'on',
      quota: {
        monthly_budget: 500,
        max_calls_per_minute: 60,
        max_calls_per_day: 1000,
        max_cost_per_call: 10,
      },
      tracing: 'off',
      dev_mode: false,
      log_level: 'info',
      config_source: '/etc/owlclaw/mcp-server.yaml',
    });
  });

  it('omits the listener for stdio and names the defaults as source', () => {
    const summary = summarizeConfig(DEFAULT_CONFIG, undefined);
    expect(summary.listen).toBeUndefined();
    expect(summary.config_source).toBe('built-in defaults (no config file)');
  });
});

describe('GatewayConfigModule', () => {
  it('provides the config by token', async () => {
    const cfg = load({ overrides: { http: { port: 1234 } } });
    const moduleRef = await Test.createTestingModule({
      imports: [GatewayConfigModule.forRoot(cfg)],
    }).compile();
    expect(moduleRef.get<GatewayConfig>(GATEWAY_CONFIG)).toBe(cfg);
    await moduleRef.close();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
