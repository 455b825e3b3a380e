import {
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { ConfigPath, Default, Section, Unset } from './config-schema.decorators';

/*
 * The sections about how clients reach the gateway. Decorators apply bottom-up
 * and class-validator runs them in that order, so the type check sits nearest
 * the property: with stopAtFirstError a string port then reports "must be an
 * integer" rather than a range complaint.
 */

const FOUR_MIB = 4 * 1024 * 1024;

// An Origin header is scheme://host[:port] with nothing after it; a trailing
// slash or path in the config would silently never match, so it is rejected.
const ORIGIN_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/[^/\s?#]+$/i;

export class ServerSchema {
  /** Server name reported to clients (serverInfo.name). */
  @Default('owlclaw-mcp-gateway')
  @IsNotEmpty()
  @IsString()
  name!: string;

  @Default(
    'OwlClaw MCP Gateway: exposes governed business tools and skills; every tool call is ' +
      'subject to budget, rate limits and audit, so read the skill resources before calling tools.',
  )
  @IsString()
  instructions!: string;

  /**
   * Freshness hint (ttlMs) on lists, resource reads and server/discover for
   * 2026-07-28 clients; list_changed notifications still invalidate. 0 = always stale.
   */
  @Default(60)
  @Min(0)
  @IsInt()
  cache_ttl_seconds!: number;
}

export class CorsSchema {
  @Default(true)
  @IsBoolean()
  enabled!: boolean;

  // Empty means no cross-origin browser access: only requests without an Origin
  // header or from the same origin pass (MCP's DNS-rebinding guidance).
  @Default([])
  @Matches(ORIGIN_PATTERN, {
    each: true,
    message:
      'each value must be an origin such as https://app.example.com ' +
      '(scheme://host[:port], no path, no trailing slash)',
  })
  @IsString({ each: true })
  @IsArray()
  allowed_origins!: string[];

  @Default(['GET', 'POST', 'DELETE', 'OPTIONS'])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allowed_methods!: string[];

  @Default([
    'Content-Type',
    'Authorization',
    'Accept',
    'Mcp-Session-Id',
    'MCP-Protocol-Version',
    'Last-Event-ID',
    'X-MCP-Client-ID',
  ])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allowed_headers!: string[];

  // Browsers hide response headers unless exposed; clients must read the session id and OAuth challenges.
  @Default([
    'Mcp-Session-Id',
    'MCP-Protocol-Version',
    'WWW-Authenticate',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'X-Budget-Remaining',
  ])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  exposed_headers!: string[];

  // 0 is meaningful (browsers must not cache the preflight).
  @Default(3600)
  @Min(0)
  @IsInt()
  max_age!: number;
}

export class TlsSchema {
  @Default(false)
  @IsBoolean()
  enabled!: boolean;

  // Optional, but when present it must be a real path string (not null or '').
  // Whether the file exists is checked by the loader, once the path is absolute.
  @ConfigPath('cwd')
  @Unset('string')
  @ValidateIf((tls: TlsSchema) => tls.cert_file !== undefined)
  @IsNotEmpty()
  @IsString()
  cert_file?: string;

  @ConfigPath('cwd')
  @Unset('string')
  @ValidateIf((tls: TlsSchema) => tls.key_file !== undefined)
  @IsNotEmpty()
  @IsString()
  key_file?: string;
}

export class SseSchema {
  @Default(15)
  @Min(1)
  @IsInt()
  keepalive_seconds!: number;
}

export class HttpSchema {
  // Loopback: a gateway started by hand is not on the network; containers set 0.0.0.0 themselves.
  @Default('127.0.0.1')
  @IsNotEmpty()
  @IsString()
  host!: string;

  // 0 asks the OS for a free port; tests rely on it.
  @Default(8080)
  @Max(65535)
  @Min(0)
  @IsInt()
  port!: number;

  @Default(FOUR_MIB)
  @Min(1)
  @IsInt()
  body_limit_bytes!: number;

  /** Host header values accepted when bound to a loopback address (DNS-rebinding defence). */
  @Default([])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allowed_hosts!: string[];

  /**
   * Seconds between SIGTERM/SIGINT (readiness fails at once) and the listener
   * closing, so a load balancer sees the failed readiness and stops routing here.
   * The default holds beyond loopback; left unset on a loopback bind it is 0
   * (config-drain.default.ts), so this key is commented out in the shipped file.
   */
  @Default(5)
  @Min(0)
  @IsInt()
  drain_delay_seconds!: number;

  /**
   * How long an idle keep-alive connection stays open (Node's 5 s by
   * default). Behind a load balancer it must exceed the balancer's own idle
   * timeout (60 s on AWS ALB), or the balancer reuses connections the gateway
   * is closing; a drain waits this long for idle connections to end.
   */
  @Default(5)
  @Min(1)
  @Max(3600)
  @IsInt()
  keep_alive_timeout_seconds!: number;

  /**
   * Node's server.headersTimeout: a connection whose request headers are not
   * complete this long after it opened (or after its request began) gets 408
   * and is closed, so a client that dribbles headers cannot hold a connection.
   */
  @Default(20)
  @Min(1)
  @Max(3600)
  @IsInt()
  headers_timeout_seconds!: number;

  /**
   * Node's server.requestTimeout: a request whose body has not fully arrived
   * this long after it began gets 408 and is closed; at least headers_timeout_seconds.
   */
  @Default(60)
  @Min(1)
  @Max(3600)
  @IsInt()
  request_timeout_seconds!: number;

  @Section(() => CorsSchema)
  cors!: CorsSchema;

  @Section(() => TlsSchema)
  tls!: TlsSchema;

  @Section(() => SseSchema)
  sse!: SseSchema;
}

export class SessionsSchema {
  @Default(1800)
  @Min(1)
  @IsInt()
  idle_ttl_seconds!: number;
}

export class StdioSchema {
  // 0 is allowed: exit without waiting for in-flight calls.
  @Default(5)
  @Min(0)
  @IsInt()
  shutdown_grace_seconds!: number;

  @Default(FOUR_MIB)
  @Min(1)
  @IsInt()
  max_line_bytes!: number;
}

/**
 * Caps on what one client, or all clients together, can make the gateway hold or do.
 * Each is refused with an error naming its key and counted in mcp_limit_refusals_total
 * (docs/security.md lists them with their defaults).
 */
export class LimitsSchema {
  /** Open MCP sessions (and legacy SSE sessions) one client id may hold at once. */
  @Default(32)
  @Min(1)
  @IsInt()
  sessions_per_client!: number;

  /** Open MCP sessions across all clients of this replica. */
  @Default(10_000)
  @Min(1)
  @IsInt()
  sessions_total!: number;

  /** Serialized size of the `capabilities` plus `clientInfo` an initialize may store. */
  @Default(16 * 1024)
  @Min(256)
  @IsInt()
  session_metadata_bytes!: number;

  /** clientInfo is cut to this many characters of JSON in log lines. */
  @Default(512)
  @Min(16)
  @IsInt()
  logged_client_info_bytes!: number;

  /** Serialized size of a 2026-07-28 request's inputResponses, and of the answers its requestState carries. */
  @Default(64 * 1024)
  @Min(256)
  @IsInt()
  input_responses_bytes!: number;

  /** Input-required rounds one 2026-07-28 request may go through before it is refused. */
  @Default(8)
  @Min(1)
  @IsInt()
  input_rounds!: number;

  /** Questions (elicitation, sampling, roots) one input-required result may ask at once. */
  @Default(16)
  @Min(1)
  @IsInt()
  input_requests_per_round!: number;

  /** Requests in one JSON-RPC batch. */
  @Default(100)
  @Min(1)
  @IsInt()
  batch_max_requests!: number;

  /** Total serialized size of the answers to one batch. */
  @Default(16 * 1024 * 1024)
  @Min(1024)
  @IsInt()
  batch_max_response_bytes!: number;

  /** Serialized size of one request's `arguments`, checked before any transformation. */
  @Default(1024 * 1024)
  @Min(1024)
  @IsInt()
  argument_max_bytes!: number;

  /** Keys across the whole `arguments` object, nested ones included. */
  @Default(10_000)
  @Min(1)
  @IsInt()
  argument_max_keys!: number;

  /** Nesting depth of `arguments` (objects and arrays). */
  @Default(32)
  @Min(1)
  @IsInt()
  argument_max_depth!: number;

  /** Nesting of objects and arrays in one HTTP body or stdio line (a message is level 1), checked before it is parsed. */
  @Default(64)
  @Max(1000)
  @Min(8)
  @IsInt()
  message_max_depth!: number;

  /** Object keys across one HTTP body or stdio line, checked before it is parsed. */
  @Default(20_000)
  @Min(100)
  @IsInt()
  message_max_keys!: number;

  /** Array elements across one HTTP body or stdio line, checked before it is parsed. */
  @Default(100_000)
  @Min(100)
  @IsInt()
  message_max_array_elements!: number;

  /** Open SSE streams (GET /mcp, /mcp/sse, legacy /sse) one client id may hold. */
  @Default(8)
  @Min(1)
  @IsInt()
  sse_streams_per_client!: number;

  /** Open SSE streams across all clients of this replica. */
  @Default(1_000)
  @Min(1)
  @IsInt()
  sse_streams_total!: number;

  /** Resource subscriptions (resources/subscribe) one session may hold; they are kept in its shared record. */
  @Default(100)
  @Min(1)
  @IsInt()
  subscriptions_per_session!: number;

  /** Characters of a URI given to resources/subscribe (it is kept for the session's life). */
  @Default(2_048)
  @Min(64)
  @IsInt()
  subscription_uri_max_chars!: number;

  /** Characters of a resource URI any method takes from a client (resources/read, skills/get, ...). */
  @Default(2_048)
  @Min(64)
  @IsInt()
  resource_uri_max_chars!: number;

  /** `/`-separated parts after `scheme://` of such a URI (`skill://c/n/refs/a.md` has 4). */
  @Default(32)
  @Min(4)
  @IsInt()
  resource_uri_max_segments!: number;

  /** Open TCP connections on this replica, every peer together (Node's server.maxConnections). */
  @Default(10_000)
  @Min(1)
  @IsInt()
  connections_total!: number;

  /** Open TCP connections from one peer address (behind a load balancer, the balancer's). */
  @Default(1_000)
  @Min(1)
  @IsInt()
  connections_per_address!: number;

  /** Seconds after SIGTERM/SIGINT at which the process exits whatever is still open. */
  @Default(30)
  @Min(1)
  @IsInt()
  shutdown_deadline_seconds!: number;
}
