import type { GatewayConfigSchema } from './config.schema';

/**
 * The validated gateway configuration, exactly the `mcp_server` section of
 * `config/mcp-server.yaml` after environment and CLI overrides: the schema
 * classes of config.schema.ts as plain data. Mappings keyed by user-chosen names
 * (Maps while validating) are plain records here.
 */
type Plain<T> =
  T extends Map<string, infer V>
    ? Record<string, Plain<V>>
    : T extends readonly (infer U)[]
      ? Plain<U>[]
      : T extends object
        ? { [K in keyof T]: Plain<T[K]> }
        : T;

export type GatewayConfig = Plain<GatewayConfigSchema>;
export type { LogLevel, TransportKind } from './config.schema';

export type HttpConfig = GatewayConfig['http'];
export type CorsConfig = HttpConfig['cors'];
export type TlsConfig = HttpConfig['tls'];
export type SessionsConfig = GatewayConfig['sessions'];
export type StdioConfig = GatewayConfig['stdio'];
export type ToolsConfig = GatewayConfig['tools'];
export type ResourcesConfig = GatewayConfig['resources'];
export type CapabilitiesConfig = GatewayConfig['capabilities'];
export type UpstreamsConfig = GatewayConfig['upstreams'];
export type GovernanceConfig = GatewayConfig['governance'];
export type QuotaConfig = GovernanceConfig['default_quota'];
export type ClientRulesConfig = GovernanceConfig['clients'][string];
export type ToolLimitConfig = NonNullable<ClientRulesConfig['tool_limits']>[string];
export type AuthConfig = GatewayConfig['auth'];
export type OAuthConfig = AuthConfig['oauth'];
export type StateConfig = GatewayConfig['state'];
export type LedgerConfig = GatewayConfig['ledger'];
export type LoggingConfig = GatewayConfig['logging'];
export type LimitsConfig = GatewayConfig['limits'];
export type MetricsConfig = GatewayConfig['metrics'];
export type AlertsConfig = GatewayConfig['alerts'];
export type AlertWebhookConfig = AlertsConfig['webhooks'][number];
export type TracingConfig = GatewayConfig['tracing'];
