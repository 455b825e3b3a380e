/**
 * The validated gateway configuration, exactly the `mcp_server` section of
 * `config/mcp-server.yaml` after environment and CLI overrides. Keys stay in the
 * file's snake_case so that a key named in an error message is the key to edit.
 */
export type TransportKind = 'stdio' | 'http';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface CorsConfig {
  enabled: boolean;
  allowed_origins: string[];
  allowed_methods: string[];
  allowed_headers: string[];
  exposed_headers: string[];
  max_age: number;
}

export interface TlsConfig {
  enabled: boolean;
  cert_file?: string;
  key_file?: string;
}

export interface HttpConfig {
  host: string;
  port: number;
  body_limit_bytes: number;
  /** Host header values accepted when bound to a loopback address (DNS-rebinding defence). */
  allowed_hosts: string[];
  cors: CorsConfig;
  tls: TlsConfig;
  sse: { keepalive_seconds: number };
}

export interface SessionsConfig {
  idle_ttl_seconds: number;
}

export interface StdioConfig {
  shutdown_grace_seconds: number;
  max_line_bytes: number;
}

export interface ToolsConfig {
  default_timeout_seconds: number;
  progress_interval_seconds: number;
}

export interface ResourcesConfig {
  skills_dir: string;
  cache_ttl_seconds: number;
}

export interface CapabilitiesConfig {
  /** Load the bundled demo capability pack (orders and inventory). */
  demo_pack: boolean;
  /** Compiled JS files, each exporting a Nest module with @Capability providers. */
  modules: string[];
}

export interface QuotaConfig {
  monthly_budget: number;
  max_calls_per_minute: number;
  max_calls_per_day: number;
  max_cost_per_call: number;
}

/** Per-client limits on one tool (or tools matching a glob), beside the client-wide ones. */
export interface ToolLimitConfig {
  max_calls_per_minute?: number;
  max_calls_per_day?: number;
}

/** Rules for one client id; anything left out falls back to the defaults. */
export interface ClientRulesConfig {
  quota?: Partial<QuotaConfig>;
  /** Glob patterns over tool names and resource URIs this client may see; replaces the default list. */
  allow?: string[];
  /** Glob patterns this client may never see (checked after allow). */
  deny?: string[];
  /** Keyed by tool name or glob. */
  tool_limits?: Record<string, ToolLimitConfig>;
}

export interface GovernanceConfig {
  enabled: boolean;
  default_quota: QuotaConfig;
  /** When the shared counter store is unreachable: false refuses calls (governance_unavailable), true lets them through. */
  fail_open: boolean;
  /** Default visibility for every client: glob patterns over tool names and resource URIs. */
  visibility: { allow: string[]; deny: string[] };
  /** Per-client overrides, keyed by client id. */
  clients: Record<string, ClientRulesConfig>;
}

export interface AuthConfig {
  /** none: X-MCP-Client-ID or the peer address names the client; api_key: a Bearer key is required. */
  mode: 'none' | 'api_key';
  /** `<client_id>:<sha256 hex of the key>` entries; keys are never stored in clear. */
  api_keys: string[];
}

export interface StateConfig {
  /** memory: in-process counters (one replica); redis: counters shared by every replica. */
  driver: 'memory' | 'redis';
  redis_url: string;
  key_prefix: string;
}

export interface LedgerConfig {
  /** Off records nothing (benchmarks, throwaway setups); budgets then see no spend. */
  enabled: boolean;
  driver: 'sqlite' | 'postgres';
  sqlite_path: string;
  postgres_url: string;
  /** Store call arguments (after redaction); off keeps only their size. */
  record_arguments: boolean;
  /** Argument keys whose values are replaced by "[REDACTED]": case-insensitive regular expressions tested against each key, its words and `parent.key` (docs/configuration.md, Redaction). */
  redact_keys: string[];
  /** Rows older than this are deleted (0 keeps everything). */
  retention_days: number;
}

export interface LoggingConfig {
  level: LogLevel;
  format: 'json' | 'pretty';
}

/**
 * Caps on what one client, or all clients together, can make the gateway hold or do.
 * Each is refused with an error naming its key and counted in mcp_limit_refusals_total
 * (docs/security.md lists them with their defaults).
 */
export interface LimitsConfig {
  /** Open MCP sessions (and legacy SSE sessions) one client id may hold at once. */
  sessions_per_client: number;
  /** Open MCP sessions across all clients of this replica. */
  sessions_total: number;
  /** Serialized size of the `capabilities` plus `clientInfo` an initialize may store. */
  session_metadata_bytes: number;
  /** clientInfo is cut to this many characters of JSON in log lines. */
  logged_client_info_bytes: number;
  /** Requests in one JSON-RPC batch. */
  batch_max_requests: number;
  /** Total serialized size of the answers to one batch. */
  batch_max_response_bytes: number;
  /** Serialized size of one request's `arguments`, checked before any transformation. */
  argument_max_bytes: number;
  /** Keys across the whole `arguments` object, nested ones included. */
  argument_max_keys: number;
  /** Nesting depth of `arguments` (objects and arrays). */
  argument_max_depth: number;
  /** Open SSE streams (GET /mcp, /mcp/sse, legacy /sse) one client id may hold. */
  sse_streams_per_client: number;
  /** Open SSE streams across all clients of this replica. */
  sse_streams_total: number;
  /** Seconds after SIGTERM/SIGINT at which the process exits whatever is still open. */
  shutdown_deadline_seconds: number;
}

export interface MetricsConfig {
  /**
   * Distinct client ids that get their own label value in per-client series; every
   * other client is counted under "other" (0 = no per-client label values at all).
   */
  client_label_limit: number;
}

export interface GatewayConfig {
  transport: TransportKind;
  /** Returns stack traces in error data; never enable in production. */
  dev_mode: boolean;
  server: { name: string; instructions: string };
  http: HttpConfig;
  sessions: SessionsConfig;
  stdio: StdioConfig;
  tools: ToolsConfig;
  resources: ResourcesConfig;
  capabilities: CapabilitiesConfig;
  governance: GovernanceConfig;
  auth: AuthConfig;
  state: StateConfig;
  ledger: LedgerConfig;
  logging: LoggingConfig;
  limits: LimitsConfig;
  metrics: MetricsConfig;
}
