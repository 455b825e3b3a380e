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
  Min,
  ValidateNested,
} from 'class-validator';
import { ConfigPath, Default, defaultsOf, Mapping, Section } from './config-schema.decorators';
import { IsGlob } from './glob.validator';

/** The sections about who may call what, what it costs and what is kept of it. */

const FINITE = { allowNaN: false, allowInfinity: false };
const FINITE_MESSAGE = { message: 'must be a finite number' };

/**
 * Mappings keyed by user-chosen names (client ids, tool globs) become Maps of
 * schema instances: class-validator validates Map values with `each`, which it
 * cannot do for a plain object's arbitrary keys. A non-mapping stays as it is
 * and fails the nested validation with a clear message. Each entry gets the
 * @Default of the keys it leaves out, as sections do.
 */
export function toMapOf<T extends object>(schema: new () => T) {
  return ({ value }: { value: unknown }): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    return new Map(
      Object.entries(value).map(([key, entry]) => [
        key,
        plainToInstance(schema, withDefaults(schema, entry)),
      ]),
    );
  };
}

function withDefaults(schema: new () => object, entry: unknown): unknown {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
  return { ...defaultsOf(schema), ...entry };
}

export class QuotaSchema {
  // Money may be fractional (the seed writes 500.0); it can never be negative.
  @Default(500)
  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  monthly_budget!: number;

  @Default(60)
  @Min(1)
  @IsInt()
  max_calls_per_minute!: number;

  @Default(1000)
  @Min(1)
  @IsInt()
  max_calls_per_day!: number;

  @Default(10)
  @Min(0)
  @IsNumber(FINITE, FINITE_MESSAGE)
  max_cost_per_call!: number;

  /** Tasks (long-running tool calls) of one client queued or running at once; one more is refused. */
  @Default(10)
  @Min(1)
  @IsInt()
  max_concurrent_tasks!: number;
}

/** Per-client limits on one tool (or tools matching a glob), beside the client-wide ones. */
export class ToolLimitSchema {
  @IsOptional()
  @Min(1)
  @IsInt()
  max_calls_per_minute?: number;

  @IsOptional()
  @Min(1)
  @IsInt()
  max_calls_per_day?: number;
}

/** A client's own quota: anything left out falls back to the default quota. */
export class PartialQuotaSchema {
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

  @IsOptional()
  @Min(1)
  @IsInt()
  max_concurrent_tasks?: number;
}

/** Rules for one client id; anything left out falls back to the defaults. */
export class ClientRulesSchema {
  @IsOptional()
  @Type(() => PartialQuotaSchema)
  @ValidateNested()
  @IsObject()
  quota?: PartialQuotaSchema;

  /** Glob patterns over tool names and resource URIs this client may see; replaces the default list. */
  @IsOptional()
  @IsGlob()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allow?: string[];

  /** Glob patterns this client may never see (checked after allow). */
  @IsOptional()
  @IsGlob()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  deny?: string[];

  /** Keyed by tool name or glob: a Map so that each entry is validated (see toMapOf). */
  @IsOptional()
  @IsGlob()
  @ValidateNested({ each: true })
  @Transform(toMapOf(ToolLimitSchema))
  tool_limits?: Map<string, ToolLimitSchema>;
}

/** Default visibility for every client: glob patterns over tool names and resource URIs. */
export class VisibilitySchema {
  @Default(['*'])
  @IsGlob()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  allow!: string[];

  @Default([])
  @IsGlob()
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  deny!: string[];
}

export class GovernanceSchema {
  @Default(true)
  @IsBoolean()
  enabled!: boolean;

  @Section(() => QuotaSchema)
  default_quota!: QuotaSchema;

  /** When the shared counter store is unreachable: false refuses calls (governance_unavailable), true lets them through. */
  @Default(false)
  @IsBoolean()
  fail_open!: boolean;

  @Section(() => VisibilitySchema)
  visibility!: VisibilitySchema;

  /** Per-client overrides keyed by client id: a Map so that each client's rules are validated (see toMapOf). */
  @Mapping()
  @ValidateNested({ each: true })
  @Transform(toMapOf(ClientRulesSchema))
  @IsDefined()
  clients!: Map<string, ClientRulesSchema>;
}

export class StateSchema {
  /** memory: in-process counters and sessions (one replica); redis: counters (and, by `sessions`, sessions) shared by every replica. */
  @Default('memory')
  @IsIn(['memory', 'redis'])
  driver!: 'memory' | 'redis';

  @Default('redis://127.0.0.1:6379')
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// or rediss:// URL' })
  @IsString()
  redis_url!: string;

  @Default('owlclaw:')
  @IsString()
  key_prefix!: string;

  /**
   * With the redis driver: shared, MCP sessions in Redis so that any replica serves any request;
   * local, each session stays in the process that created it (a balancer with session affinity).
   */
  @Default('shared')
  @IsIn(['shared', 'local'])
  sessions!: 'shared' | 'local';
}

export class LedgerSchema {
  /** Off records nothing (benchmarks, throwaway setups); budgets then see no spend. */
  @Default(true)
  @IsBoolean()
  enabled!: boolean;

  @Default('sqlite')
  @IsIn(['sqlite', 'postgres'])
  driver!: 'sqlite' | 'postgres';

  // Left at its default in stdio mode it moves to the user's data directory (config-paths.ts).
  @ConfigPath('state')
  @Default('./data/ledger.db')
  @IsNotEmpty()
  @IsString()
  sqlite_path!: string;

  @Default('postgres://postgres@127.0.0.1:5432/test')
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  @IsString()
  postgres_url!: string;

  /** Store call arguments (after redaction); off keeps only their size. */
  @Default(true)
  @IsBoolean()
  record_arguments!: boolean;

  /** Argument keys whose values are replaced by "[REDACTED]": case-insensitive regular expressions tested against each key, its words and `parent.key` (docs/configuration.md, Redaction). */
  @Default([
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
  ])
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @IsArray()
  redact_keys!: string[];

  /** Rows older than this are deleted (0 keeps everything). */
  @Default(90)
  @Min(0)
  @IsInt()
  retention_days!: number;
}

export class MetricsSchema {
  /**
   * Distinct client ids that get their own label value in per-client series; every
   * other client is counted under "other" (0 = no per-client label values at all).
   */
  @Default(50)
  @Min(0)
  @IsInt()
  client_label_limit!: number;
}
