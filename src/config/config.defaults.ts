import { GatewayConfig } from './gateway-config';

const FOUR_MIB = 4 * 1024 * 1024;

/** Recursively freezes a value so that nothing can change the shared defaults in place. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The configuration used when neither file, environment nor CLI says otherwise.
 * Deeply frozen: it is shared by every loader call and by tests, so an
 * accidental `cfg.http.port = 0` on it must fail loudly instead of leaking into
 * the next caller. Copy it (the loader does) before changing anything.
 *
 * `config/mcp-server.yaml` spells out these same values; a test keeps them equal.
 */
export const DEFAULT_CONFIG: GatewayConfig = deepFreeze<GatewayConfig>({
  // The seed makes stdio the default of `owlclaw mcp-server start`; `npm start` asks for http.
  transport: 'stdio',
  dev_mode: false,
  server: {
    name: 'owlclaw-mcp-gateway',
    instructions:
      'OwlClaw MCP Gateway: exposes governed business tools and skills; every tool call is ' +
      'subject to budget, rate limits and audit, so read the skill resources before calling tools.',
  },
  http: {
    // All interfaces, as in the seed; a container needs it. Loopback deployments set 127.0.0.1.
    host: '0.0.0.0',
    port: 8080,
    body_limit_bytes: FOUR_MIB,
    allowed_hosts: [],
    cors: {
      enabled: true,
      // Empty means no cross-origin browser access: only requests without an Origin
      // header or from the same origin pass (MCP's DNS-rebinding guidance).
      allowed_origins: [],
      allowed_methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowed_headers: [
        'Content-Type',
        'Authorization',
        'Accept',
        'Mcp-Session-Id',
        'MCP-Protocol-Version',
        'Last-Event-ID',
        'X-MCP-Client-ID',
      ],
      // Browsers hide response headers unless exposed; clients must read the session id.
      exposed_headers: [
        'Mcp-Session-Id',
        'MCP-Protocol-Version',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'X-Budget-Remaining',
      ],
      max_age: 3600,
    },
    tls: { enabled: false },
    sse: { keepalive_seconds: 15 },
  },
  sessions: { idle_ttl_seconds: 1800 },
  stdio: { shutdown_grace_seconds: 5, max_line_bytes: FOUR_MIB },
  tools: {
    default_timeout_seconds: 300,
    progress_interval_seconds: 30,
  },
  resources: { skills_dir: './capabilities', cache_ttl_seconds: 600 },
  capabilities: { demo_pack: true, modules: [] },
  governance: {
    enabled: true,
    default_quota: {
      monthly_budget: 500,
      max_calls_per_minute: 60,
      max_calls_per_day: 1000,
      max_cost_per_call: 10,
    },
    fail_open: false,
    visibility: { allow: ['*'], deny: [] },
    clients: {},
  },
  auth: { mode: 'none', api_keys: [] },
  state: { driver: 'memory', redis_url: 'redis://127.0.0.1:6379', key_prefix: 'owlclaw:' },
  ledger: {
    enabled: true,
    driver: 'sqlite',
    sqlite_path: './data/ledger.db',
    postgres_url: 'postgres://postgres@127.0.0.1:5432/test',
    record_arguments: true,
    // Matched against each key, its words (`x_api_key`) and `parent.key`; see docs/configuration.md.
    redact_keys: [
      'password',
      'passwd',
      '(^|_)(pass|pwd|passphrase|passcode)(_|$)',
      'secret',
      'token',
      'api[_-]?key',
      'private[_-]?key',
      'authorization',
      '(^|_)o?auth(_|$)',
      '(^|_)bearer(_|$)',
      'credential',
      '(^|_)cookies?(_|$)',
      '(^|_)session(_?(id|key|token|secret|cookie))?$',
    ],
    retention_days: 90,
  },
  // stderr only: in stdio mode stdout is the protocol channel.
  logging: { level: 'info', format: 'json' },
  limits: {
    sessions_per_client: 32,
    sessions_total: 10_000,
    session_metadata_bytes: 16 * 1024,
    logged_client_info_bytes: 512,
    batch_max_requests: 100,
    batch_max_response_bytes: 16 * 1024 * 1024,
    argument_max_bytes: 1024 * 1024,
    argument_max_keys: 10_000,
    argument_max_depth: 32,
    sse_streams_per_client: 8,
    sse_streams_total: 1_000,
    shutdown_deadline_seconds: 30,
  },
  metrics: { client_label_limit: 50 },
});
