// class-transformer's @Type reads design-time metadata through Reflect.getMetadata. The CLI
// loads config before anything imports Nest (which would install the polyfill), so install it here.
import 'reflect-metadata';
import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsString,
  Max,
  Min,
  ValidationError,
} from 'class-validator';
import { configShapeProblems } from './config-shape.check';
import { validateStrictly, validationProblems } from './validation-problems';
import type { GatewayConfig } from './gateway-config';
import {
  GovernanceSchema,
  LedgerSchema,
  MetricsSchema,
  StateSchema,
} from './config-governance.schema';
import { AlertsSchema } from './config-alerts.schema';
import { AuthSchema } from './config-auth.schema';
import { MrtrSchema } from './config-mrtr.schema';
import { TasksSchema } from './config-tasks.schema';
import { TracingSchema } from './config-tracing.schema';
import { ConfigPath, Default, Section } from './config-schema.decorators';
import { IsToolNameSeparator } from './tool-name-separator.validator';
import {
  HttpSchema,
  LimitsSchema,
  ServerSchema,
  SessionsSchema,
  StdioSchema,
} from './config-transport.schema';

/*
 * The one definition of the gateway configuration. Each property of these
 * classes carries its validators, its default (@Default, or @Unset for an
 * optional key) and, for paths, how a relative value resolves (@ConfigPath).
 * From them come the TypeScript type (gateway-config.ts), DEFAULT_CONFIG,
 * the MCP_SERVER_* variable map (config.loader.ts) and the shipped YAML that a
 * test keeps equal to the defaults. Keys stay in the file's snake_case so that
 * a key named in an error message is the key to edit.
 */

export type TransportKind = 'stdio' | 'http';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'pretty';

export const TRANSPORTS: readonly TransportKind[] = ['stdio', 'http'];
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/**
 * Accepts the seed's Python-style upper-case levels (DEBUG, INFO, WARNING, ERROR)
 * as well as ours, in any case. Anything else is returned untouched so the
 * validation message shows what the user actually wrote.
 */
export function normaliseLogLevel(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  const canonical = lower === 'warning' ? 'warn' : lower;
  return (LOG_LEVELS as readonly string[]).includes(canonical) ? canonical : value;
}

class ToolsSchema {
  @Default(300)
  @Min(1)
  @IsInt()
  default_timeout_seconds!: number;

  @Default(30)
  @Min(1)
  @IsInt()
  progress_interval_seconds!: number;

  /**
   * A tool expected to run longer than this (its `maxDurationSeconds`) runs as a task for a
   * client that accepts tasks, even if it declares no `task` mode of its own.
   */
  @Default(30)
  @Min(1)
  @IsInt()
  async_threshold_seconds!: number;
}

class ResourcesSchema {
  // Left at its default it names the skills bundled with the installation (config-paths.ts).
  @ConfigPath('installation')
  @Default('./capabilities')
  @IsNotEmpty()
  @IsString()
  skills_dir!: string;

  /** Freshness hint (ttlMs) on skills/list and skills/get; the catalog itself re-reads on change. */
  @Default(600)
  @Min(1)
  @IsInt()
  cache_ttl_seconds!: number;
}

class CapabilitiesSchema {
  /** Load the bundled demo capability pack (orders and inventory). */
  @Default(true)
  @IsBoolean()
  demo_pack!: boolean;

  /** Compiled JS files, each exporting a Nest module with @Capability providers. */
  @ConfigPath('cwd')
  @Default([])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  modules!: string[];
}

/** Upstream MCP servers the gateway fronts: one registry file per server (docs/federation.md). */
class UpstreamsSchema {
  // Left at its default it names the installation's config/mcp.d, like skills_dir (config-paths.ts).
  @ConfigPath('installation')
  @Default('./config/mcp.d')
  @IsNotEmpty()
  @IsString()
  registry_dir!: string;

  /** An unknown key in a registry file rejects that file (true) or only warns (false). */
  @Default(true)
  @IsBoolean()
  strict!: boolean;

  /** Joins namespace and upstream tool name in the names clients see (`github__search`). */
  @Default('__')
  @IsToolNameSeparator()
  @IsString()
  separator!: string;

  /** Lets `.` appear in exposed names (and the separator); some clients refuse such names. */
  @Default(false)
  @IsBoolean()
  allow_dots!: boolean;

  /** How long an upstream's tools/prompts/resources lists are kept before they are listed again. */
  @Default(300)
  @Max(86_400)
  @Min(1)
  @IsInt()
  tools_cache_ttl_seconds!: number;

  /** After a failed listing, how soon it is tried again (the server's entries stay out meanwhile). */
  @Default(15)
  @Max(3_600)
  @Min(1)
  @IsInt()
  tools_cache_failure_ttl_seconds!: number;

  /** Stdio children running at once across all upstreams; one more is refused (mcp_unavailable). */
  @Default(32)
  @Max(1024)
  @Min(1)
  @IsInt()
  max_children!: number;

  /** A crashed stdio child restarts after a random delay up to base * 2^attempt, capped at max. */
  @Default(500)
  @Max(60_000)
  @Min(10)
  @IsInt()
  restart_backoff_base_ms!: number;

  @Default(30_000)
  @Max(600_000)
  @Min(10)
  @IsInt()
  restart_backoff_max_ms!: number;

  /** Crashes and failed starts within restart_window_seconds before a server is marked down. */
  @Default(5)
  @Max(100)
  @Min(1)
  @IsInt()
  restart_max_failures!: number;

  @Default(60)
  @Max(86_400)
  @Min(1)
  @IsInt()
  restart_window_seconds!: number;

  /** Directories an upstream's `file:` secret may live in (links followed); empty: derived (secret-file.reader.ts). */
  @ConfigPath('cwd')
  @Default([])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  secret_dirs!: string[];

  @Default(65_536)
  @Max(1_048_576)
  @Min(1)
  @IsInt()
  secret_max_bytes!: number;

  /** An upstream's progress reaches the client at most this often; reports between are folded into the latest. */
  @Default(100)
  @Max(60_000)
  @Min(10)
  @IsInt()
  progress_interval_ms!: number;
}

// Logs always go to stderr: in stdio mode stdout is the protocol channel.
class LoggingSchema {
  @Default('info')
  @Transform(({ value }: { value: unknown }) => normaliseLogLevel(value), { toClassOnly: true })
  @IsIn(LOG_LEVELS, {
    message: `must be one of ${LOG_LEVELS.join(', ')} (DEBUG, INFO, WARNING, ERROR also accepted)`,
  })
  level!: LogLevel;

  @Default('json')
  @IsIn(LOG_FORMATS)
  format!: LogFormat;

  /** One `mcp request` line per request when it ends; false writes none of them. */
  @Default(true)
  @IsBoolean()
  request_log!: boolean;

  /** Share of successful requests that get their line; failed ones always do. */
  @Default(1)
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number from 0 to 1' })
  request_log_success_sample_ratio!: number;
}

export class GatewayConfigSchema {
  // The seed makes stdio the default of `owlclaw mcp-server start`; `npm start` asks for http.
  @Default('stdio')
  @IsIn(TRANSPORTS)
  transport!: TransportKind;

  /** Returns stack traces in error data; never enable in production. */
  @Default(false)
  @IsBoolean()
  dev_mode!: boolean;

  @Section(() => ServerSchema)
  server!: ServerSchema;

  @Section(() => HttpSchema)
  http!: HttpSchema;

  @Section(() => SessionsSchema)
  sessions!: SessionsSchema;

  @Section(() => StdioSchema)
  stdio!: StdioSchema;

  @Section(() => ToolsSchema)
  tools!: ToolsSchema;

  @Section(() => ResourcesSchema)
  resources!: ResourcesSchema;

  @Section(() => CapabilitiesSchema)
  capabilities!: CapabilitiesSchema;

  @Section(() => UpstreamsSchema)
  upstreams!: UpstreamsSchema;

  @Section(() => GovernanceSchema)
  governance!: GovernanceSchema;

  @Section(() => AuthSchema)
  auth!: AuthSchema;

  @Section(() => StateSchema)
  state!: StateSchema;

  @Section(() => MrtrSchema)
  mrtr!: MrtrSchema;

  @Section(() => TasksSchema)
  tasks!: TasksSchema;

  @Section(() => LedgerSchema)
  ledger!: LedgerSchema;

  @Section(() => LoggingSchema)
  logging!: LoggingSchema;

  @Section(() => LimitsSchema)
  limits!: LimitsSchema;

  @Section(() => MetricsSchema)
  metrics!: MetricsSchema;

  @Section(() => AlertsSchema)
  alerts!: AlertsSchema;
  @Section(() => TracingSchema)
  tracing!: TracingSchema;
}

/** One schema violation; `path` is relative to `mcp_server`. */
export interface SchemaProblem {
  path: string[];
  message: string;
  /** True when the key itself is not part of the schema (a typo or a removed option). */
  unknownKey: boolean;
}

export type SchemaResult =
  { ok: true; config: GatewayConfig } | { ok: false; problems: SchemaProblem[] };

/**
 * Checks a merged, plain `mcp_server` object against the schema. On success the
 * result is a fresh plain object (no schema class instances, no undefined
 * members) with the log level normalised.
 */
export function validateGatewayConfigShape(plain: unknown): SchemaResult {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return { ok: false, problems: [{ path: [], message: 'must be a mapping', unknownKey: false }] };
  }
  const shapeProblems = configShapeProblems(plain);
  if (shapeProblems.length > 0) return { ok: false, problems: shapeProblems };
  let instance: GatewayConfigSchema;
  let errors: ValidationError[];
  try {
    ({ instance, errors } = validateStrictly(GatewayConfigSchema, plain));
  } catch (err) {
    // Whatever else the transformer chokes on is still the input's fault, not the gateway's.
    const message = `cannot be read: ${err instanceof Error ? err.message : String(err)}`;
    return { ok: false, problems: [{ path: [], message, unknownKey: false }] };
  }
  if (errors.length > 0) {
    return { ok: false, problems: validationProblems(errors, 'is not a known configuration key') };
  }
  // Safe: every member has just been checked against the schema.
  return { ok: true, config: toPlain(instance) as GatewayConfig };
}

/** Deep copy of own enumerable data, dropping undefined members and class prototypes. */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Map) {
    return Object.fromEntries(
      [...(value as Map<string, unknown>)].map(([k, v]) => [k, toPlain(v)]),
    );
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (child !== undefined) out[key] = toPlain(child);
    }
    return out;
  }
  return value;
}
