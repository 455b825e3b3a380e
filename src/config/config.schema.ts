// class-transformer's @Type reads design-time metadata through Reflect.getMetadata. The CLI
// loads config before anything imports Nest (which would install the polyfill), so install it here.
import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
  validateSync,
  ValidationError,
} from 'class-validator';
import { configShapeProblems } from './config-shape.check';
import { GatewayConfig, LogLevel, TransportKind } from './gateway-config';

/*
 * class-validator mirror of GatewayConfig. The interface stays the contract the
 * rest of the code reads; these classes exist only to check untrusted input
 * (file, env, CLI) against it. Every property carries a validator decorator,
 * because whitelisting treats an undecorated property as unknown.
 *
 * Decorators are applied bottom-up, and class-validator runs them in that
 * order, so the type check sits nearest the property: with stopAtFirstError a
 * string port then reports "must be an integer" rather than a range complaint.
 */

export const TRANSPORTS: readonly TransportKind[] = ['stdio', 'http'];
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
export const LOG_FORMATS: readonly GatewayConfig['logging']['format'][] = ['json', 'pretty'];

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

// An Origin header is scheme://host[:port] with nothing after it; a trailing
// slash or path in the config would silently never match, so it is rejected.
const ORIGIN_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/[^/\s?#]+$/i;

/**
 * Mappings keyed by user-chosen names (client ids, tool globs) become Maps of
 * schema instances: class-validator validates Map values with `each`, which it
 * cannot do for a plain object's arbitrary keys. A non-mapping stays as it is
 * and fails the nested validation with a clear message.
 */
function toMapOf<T extends object>(schema: new () => T) {
  return ({ value }: { value: unknown }): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    return new Map(
      Object.entries(value).map(([key, entry]) => [key, plainToInstance(schema, entry)]),
    );
  };
}

const FINITE = { allowNaN: false, allowInfinity: false };
const FINITE_MESSAGE = { message: 'must be a finite number' };

class ServerSchema {
  @IsNotEmpty()
  @IsString()
  name!: string;

  @IsString()
  instructions!: string;
}

class CorsSchema {
  @IsBoolean()
  enabled!: boolean;

  @Matches(ORIGIN_PATTERN, {
    each: true,
    message:
      'each value must be an origin such as https://app.example.com ' +
      '(scheme://host[:port], no path, no trailing slash)',
  })
  @IsString({ each: true })
  @IsArray()
  allowed_origins!: string[];

  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allowed_methods!: string[];

  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allowed_headers!: string[];

  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  exposed_headers!: string[];

  // 0 is meaningful (browsers must not cache the preflight).
  @Min(0)
  @IsInt()
  max_age!: number;
}

class TlsSchema {
  @IsBoolean()
  enabled!: boolean;

  // Optional, but when present it must be a real path string (not null or '').
  // Whether the file exists is checked by the loader, which knows the cwd.
  @ValidateIf((tls: TlsSchema) => tls.cert_file !== undefined)
  @IsNotEmpty()
  @IsString()
  cert_file?: string;

  @ValidateIf((tls: TlsSchema) => tls.key_file !== undefined)
  @IsNotEmpty()
  @IsString()
  key_file?: string;
}

class SseSchema {
  @Min(1)
  @IsInt()
  keepalive_seconds!: number;
}

class HttpSchema {
  @IsNotEmpty()
  @IsString()
  host!: string;

  // 0 asks the OS for a free port; tests rely on it.
  @Max(65535)
  @Min(0)
  @IsInt()
  port!: number;

  @Min(1)
  @IsInt()
  body_limit_bytes!: number;

  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allowed_hosts!: string[];

  @Type(() => CorsSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  cors!: CorsSchema;

  @Type(() => TlsSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  tls!: TlsSchema;

  @Type(() => SseSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  sse!: SseSchema;
}

class SessionsSchema {
  @Min(1)
  @IsInt()
  idle_ttl_seconds!: number;
}

class StdioSchema {
  // 0 is allowed: exit without waiting for in-flight calls.
  @Min(0)
  @IsInt()
  shutdown_grace_seconds!: number;

  @Min(1)
  @IsInt()
  max_line_bytes!: number;
}

class ToolsSchema {
  @Min(1)
  @IsInt()
  default_timeout_seconds!: number;

  @Min(1)
  @IsInt()
  progress_interval_seconds!: number;
}

class ResourcesSchema {
  @IsNotEmpty()
  @IsString()
  skills_dir!: string;

  @Min(1)
  @IsInt()
  cache_ttl_seconds!: number;
}

class CapabilitiesSchema {
  @IsBoolean()
  demo_pack!: boolean;

  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  modules!: string[];
}

class QuotaSchema {
  // Money may be fractional (the seed writes 500.0); it can never be negative.
  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  monthly_budget!: number;

  @Min(1)
  @IsInt()
  max_calls_per_minute!: number;

  @Min(1)
  @IsInt()
  max_calls_per_day!: number;

  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  max_cost_per_call!: number;
}

class ToolLimitSchema {
  @IsOptional()
  @Min(1)
  @IsInt()
  max_calls_per_minute?: number;

  @IsOptional()
  @Min(1)
  @IsInt()
  max_calls_per_day?: number;
}

class PartialQuotaSchema {
  @IsOptional()
  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  monthly_budget?: number;

  @IsOptional()
  @Min(1)
  @IsInt()
  max_calls_per_minute?: number;

  @IsOptional()
  @Min(1)
  @IsInt()
  max_calls_per_day?: number;

  @IsOptional()
  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  max_cost_per_call?: number;
}

class ClientRulesSchema {
  @IsOptional()
  @Type(() => PartialQuotaSchema)
  @ValidateNested()
  @IsObject()
  quota?: PartialQuotaSchema;

  @IsOptional()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allow?: string[];

  @IsOptional()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  deny?: string[];

  // Keyed by tool name or glob: a Map so that each entry is validated (see toMapOf).
  @IsOptional()
  @ValidateNested({ each: true })
  @Transform(toMapOf(ToolLimitSchema))
  tool_limits?: Map<string, ToolLimitSchema>;
}

class VisibilitySchema {
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allow!: string[];

  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  deny!: string[];
}

class AuthSchema {
  @IsIn(['none', 'api_key'])
  mode!: 'none' | 'api_key';

  @Matches(/^[A-Za-z0-9._:@/-]{1,128}:[0-9a-f]{64}$/, {
    each: true,
    message: 'each entry must be "<client_id>:<64 lowercase hex sha256 of the key>"',
  })
  @IsArray()
  api_keys!: string[];
}

class StateSchema {
  @IsIn(['memory', 'redis'])
  driver!: 'memory' | 'redis';

  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// or rediss:// URL' })
  @IsString()
  redis_url!: string;

  @IsString()
  key_prefix!: string;
}

class LedgerSchema {
  @IsBoolean()
  enabled!: boolean;

  @IsIn(['sqlite', 'postgres'])
  driver!: 'sqlite' | 'postgres';

  @IsNotEmpty()
  @IsString()
  sqlite_path!: string;

  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  @IsString()
  postgres_url!: string;

  @IsBoolean()
  record_arguments!: boolean;

  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  redact_keys!: string[];

  @Min(0)
  @IsInt()
  retention_days!: number;
}

class GovernanceSchema {
  @IsBoolean()
  enabled!: boolean;

  @Type(() => QuotaSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  default_quota!: QuotaSchema;

  @IsBoolean()
  fail_open!: boolean;

  @Type(() => VisibilitySchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  visibility!: VisibilitySchema;

  // Keyed by client id: a Map so that each client's rules are validated (see toMapOf).
  @ValidateNested({ each: true })
  @Transform(toMapOf(ClientRulesSchema))
  @IsDefined()
  clients!: Map<string, ClientRulesSchema>;
}

class LoggingSchema {
  @Transform(({ value }: { value: unknown }) => normaliseLogLevel(value), { toClassOnly: true })
  @IsIn(LOG_LEVELS, {
    message: `must be one of ${LOG_LEVELS.join(', ')} (DEBUG, INFO, WARNING, ERROR also accepted)`,
  })
  level!: LogLevel;

  @IsIn(LOG_FORMATS)
  format!: GatewayConfig['logging']['format'];
}

class LimitsSchema {
  @Min(1)
  @IsInt()
  sessions_per_client!: number;

  @Min(1)
  @IsInt()
  sessions_total!: number;

  @Min(256)
  @IsInt()
  session_metadata_bytes!: number;

  @Min(16)
  @IsInt()
  logged_client_info_bytes!: number;

  @Min(1)
  @IsInt()
  batch_max_requests!: number;

  @Min(1024)
  @IsInt()
  batch_max_response_bytes!: number;

  @Min(1024)
  @IsInt()
  argument_max_bytes!: number;

  @Min(1)
  @IsInt()
  argument_max_keys!: number;

  @Min(1)
  @IsInt()
  argument_max_depth!: number;

  @Min(1)
  @IsInt()
  sse_streams_per_client!: number;

  @Min(1)
  @IsInt()
  sse_streams_total!: number;

  @Min(1)
  @IsInt()
  shutdown_deadline_seconds!: number;
}

class MetricsSchema {
  // 0 is allowed: no client id ever becomes a label value.
  @Min(0)
  @IsInt()
  client_label_limit!: number;
}

export class GatewayConfigSchema {
  @IsIn(TRANSPORTS)
  transport!: TransportKind;

  @IsBoolean()
  dev_mode!: boolean;

  @Type(() => ServerSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  server!: ServerSchema;

  @Type(() => HttpSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  http!: HttpSchema;

  @Type(() => SessionsSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  sessions!: SessionsSchema;

  @Type(() => StdioSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  stdio!: StdioSchema;

  @Type(() => ToolsSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  tools!: ToolsSchema;

  @Type(() => ResourcesSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  resources!: ResourcesSchema;

  @Type(() => CapabilitiesSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  capabilities!: CapabilitiesSchema;

  @Type(() => GovernanceSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  governance!: GovernanceSchema;

  @Type(() => AuthSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  auth!: AuthSchema;

  @Type(() => StateSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  state!: StateSchema;

  @Type(() => LedgerSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  ledger!: LedgerSchema;

  @Type(() => LoggingSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  logging!: LoggingSchema;

  @Type(() => LimitsSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  limits!: LimitsSchema;

  @Type(() => MetricsSchema)
  @ValidateNested()
  @IsObject()
  @IsDefined()
  metrics!: MetricsSchema;
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
    instance = plainToInstance(GatewayConfigSchema, plain);
    errors = validateSync(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
    });
  } catch (err) {
    // Whatever else the transformer chokes on is still the input's fault, not the gateway's.
    const message = `cannot be read: ${err instanceof Error ? err.message : String(err)}`;
    return { ok: false, problems: [{ path: [], message, unknownKey: false }] };
  }
  if (errors.length > 0) {
    const problems: SchemaProblem[] = [];
    collectProblems(errors, [], problems);
    return { ok: false, problems };
  }
  // Safe: every member has just been checked against the schema mirroring GatewayConfig.
  return { ok: true, config: toPlain(instance) as GatewayConfig };
}

function collectProblems(errors: ValidationError[], parent: string[], out: SchemaProblem[]): void {
  for (const error of errors) {
    const path = [...parent, error.property];
    const constraints = error.constraints ?? {};
    if ('whitelistValidation' in constraints) {
      out.push({ path, message: 'is not a known configuration key', unknownKey: true });
    } else {
      const entries = Object.entries(constraints).filter(
        // "nested property x must be either object or array" repeats the isObject finding.
        ([name]) => !(name === 'nestedValidation' && 'isObject' in constraints),
      );
      for (const [, message] of entries) {
        out.push({ path, message: withoutSubject(message, error.property), unknownKey: false });
      }
    }
    if (error.children && error.children.length > 0) collectProblems(error.children, path, out);
  }
}

/**
 * class-validator phrases messages as "<property> must ...". The loader prefixes
 * the full key path itself, so the repeated bare property name is dropped.
 */
function withoutSubject(message: string, property: string): string {
  if (message.startsWith(`${property} `)) return message.slice(property.length + 1);
  const each = `each value in ${property} `;
  if (message.startsWith(each)) return `each value ${message.slice(each.length)}`;
  return message;
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
