/**
 * One upstream MCP server as the registry loaded it: validated, defaults
 * applied, `${ENV:...}` references, `auth_ref` and `oauth.client_secret_ref`
 * resolved. Keys keep the file's snake_case so that a key named in a message
 * is the key to edit.
 * Holds secrets: show it only through `masked()`.
 */
export interface UpstreamRecord {
  version: 1;
  server_id: string;
  display_name: string;
  transport: UpstreamTransport;
  /** Present exactly when `transport` is `stdio`. */
  stdio?: StdioLaunch;
  /** Present exactly when `transport` is `streamable_http` or `http_sse_legacy`. */
  http?: HttpEndpoint;
  tool_namespace: string;
  /** Globs over the upstream's own tool names; empty exposes nothing. */
  allowed_tools: string[];
  denied_tools: string[];
  approval_policy: ApprovalPolicy;
  budgets: UpstreamBudgets;
  cost: CallCost;
  relay: { resources: boolean; prompts: boolean };
  /** Readiness fails while a required upstream is down. */
  required: boolean;
  /** Connect at start instead of on first use. */
  warm: boolean;
  /** A stdio child unused this long is closed (0: never); the next call starts it again. */
  idle_timeout_seconds: number;
  /** The registry file it came from (a name inside the registry directory). */
  file: string;
}

export const UPSTREAM_TRANSPORTS = ['stdio', 'streamable_http', 'http_sse_legacy'] as const;
export type UpstreamTransport = (typeof UPSTREAM_TRANSPORTS)[number];

export interface StdioLaunch {
  command: string;
  args: string[];
  /** What the child gets beyond its base environment: `env` resolved, `env_from` copied in. */
  env: Record<string, string>;
  /** The variables `env_from` named (their values are in `env`). */
  env_from: string[];
  /** Absolute; a relative value was resolved against the registry directory. */
  cwd?: string;
}

export interface HttpEndpoint {
  url: string;
  headers: Record<string, string>;
  /** As written (`env:NAME` or `file:path`); the secret it names is `auth_secret`. */
  auth_ref?: string;
  auth_secret?: string;
  /** The gateway's own OAuth client at the upstream's authorization server; excludes `auth_ref`. */
  oauth?: UpstreamOAuthClient;
}

/** Client credentials the gateway presents to the authorization server an upstream names. */
export interface UpstreamOAuthClient {
  client_id: string;
  /** As written (`env:NAME` or `file:path`); the secret it names is `client_secret`. */
  client_secret_ref: string;
  client_secret: string;
  /** Space-separated scopes to ask for. */
  scope?: string;
  /** The only authorization server the secret may be sent to. */
  issuer?: string;
}

export const APPROVALS = ['never', 'always'] as const;
export type Approval = (typeof APPROVALS)[number];

/** `tools` maps globs to an approval; see upstream-tool.policy.ts for how they combine. */
export interface ApprovalPolicy {
  default: Approval;
  tools: Record<string, Approval>;
}

export interface UpstreamBudgets {
  tool_timeout_ms: number;
  max_concurrency: number;
  max_tool_output_bytes: number;
}

/** Budget units per call: `default`, or the cost of the globs in `tools` that match. */
export interface CallCost {
  default: number;
  tools: Record<string, number>;
}
