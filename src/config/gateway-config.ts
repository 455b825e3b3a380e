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
  async_threshold_seconds: number;
  cache_ttl_seconds: number;
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

export interface GovernanceConfig {
  enabled: boolean;
  default_quota: QuotaConfig;
}

export interface LoggingConfig {
  level: LogLevel;
  format: 'json' | 'pretty';
  output: 'stderr';
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
  logging: LoggingConfig;
}
