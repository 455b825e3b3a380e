// class-transformer's @Type reads design-time metadata; the registry is also read without Nest.
import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
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
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { globProblem } from '../common/glob-pattern';
import { BoundedRecord } from './bounded-record.decorator';
import { ENV_NAME_PATTERN } from './env-reference';
import { Approval, APPROVALS } from './upstream-record';
import { BUDGET_BOUNDS, MAX_CALL_COST, REGISTRY_LIMITS as L } from './upstream-registry.limits';

/** The nested blocks of a registry file; the top level is upstream-file.schema.ts. */

const FINITE = { allowNaN: false, allowInfinity: false };
const ENV_NAME_RULE = 'must be an environment variable name (letters, digits, "_")';
// RFC 9110 token characters: anything else cannot be sent as a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const AUTH_REF = /^(env:[A-Za-z_][A-Za-z0-9_]*|file:.+)$/;
const AUTH_REF_RULE = { message: 'must be env:NAME or file:PATH' };
// RFC 6749 section 3.3: scope tokens of printable ASCII but space, '"' and '\\', one space apart.
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/;

function envNameProblem(key: string): string | undefined {
  if (key.length > L.maxNameLength) return `is longer than ${L.maxNameLength} characters`;
  return ENV_NAME_PATTERN.test(key) ? undefined : ENV_NAME_RULE;
}

function headerNameProblem(key: string): string | undefined {
  if (key.length > L.maxNameLength) return `is longer than ${L.maxNameLength} characters`;
  return HEADER_NAME.test(key) ? undefined : 'is not a valid HTTP header name';
}

export function patternProblem(key: string): string | undefined {
  if (key === '') return 'must not be empty';
  if (key.length > L.maxNameLength) return `is longer than ${L.maxNameLength} characters`;
  return globProblem(key);
}

function textValueProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string (quote numbers and booleans)';
  return value.length > L.maxValueLength
    ? `is longer than ${L.maxValueLength} characters`
    : undefined;
}

function approvalProblem(value: unknown): string | undefined {
  return (APPROVALS as readonly unknown[]).includes(value)
    ? undefined
    : `must be one of ${APPROVALS.join(', ')}`;
}

function costProblem(value: unknown): string | undefined {
  const ok = typeof value === 'number' && Number.isFinite(value);
  return ok && value >= 0 && value <= MAX_CALL_COST
    ? undefined
    : `must be a number from 0 to ${MAX_CALL_COST}`;
}

export class StdioBlockSchema {
  @MaxLength(L.maxPathLength)
  @IsNotEmpty()
  @IsString()
  command!: string;

  @MaxLength(L.maxPathLength, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(L.maxListItems)
  @IsArray()
  args: string[] = [];

  /** Values may hold `${ENV:...}` references. */
  @BoundedRecord({ maxEntries: L.maxMapEntries, key: envNameProblem, value: textValueProblem })
  env: Record<string, string> = {};

  /** Variables passed through as they are: `[TOKEN]` means `env: { TOKEN: ${ENV:TOKEN} }`. */
  @Matches(ENV_NAME_PATTERN, { each: true, message: `each value ${ENV_NAME_RULE}` })
  @MaxLength(L.maxNameLength, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(L.maxListItems)
  @IsArray()
  env_from: string[] = [];

  @IsOptional()
  @MaxLength(L.maxPathLength)
  @IsNotEmpty()
  @IsString()
  cwd?: string;
}

export class HttpOAuthSchema {
  @MaxLength(L.maxNameLength)
  @IsNotEmpty()
  @IsString()
  @IsDefined({ message: 'is required' })
  client_id!: string;

  @Matches(AUTH_REF, AUTH_REF_RULE)
  @MaxLength(L.maxPathLength)
  @IsString()
  @IsDefined({ message: 'is required; write env:NAME or file:PATH' })
  client_secret_ref!: string;

  /** Space-separated; unset asks the authorization server for the client's default scopes. */
  @IsOptional()
  @Matches(SCOPE, { message: 'must be scope names separated by single spaces' })
  @MaxLength(L.maxValueLength)
  @IsString()
  scope?: string;

  /**
   * The authorization server the credentials belong to, exactly as its metadata names it; the
   * secret is then never sent to another one, whatever the upstream advertises. Checked as an
   * http(s) URL by the resolver.
   */
  @IsOptional()
  @MaxLength(L.maxPathLength)
  @IsNotEmpty()
  @IsString()
  issuer?: string;
}

export class HttpBlockSchema {
  /** May hold `${ENV:...}` references; checked as an http(s) URL once they are resolved. */
  @MaxLength(L.maxPathLength)
  @IsNotEmpty()
  @IsString()
  url!: string;

  /** Values may hold `${ENV:...}` references. */
  @BoundedRecord({ maxEntries: L.maxHeaders, key: headerNameProblem, value: textValueProblem })
  headers: Record<string, string> = {};

  @IsOptional()
  @Matches(AUTH_REF, AUTH_REF_RULE)
  @MaxLength(L.maxPathLength)
  @IsString()
  auth_ref?: string;

  /** The gateway's own client at the upstream's authorization server (client credentials). */
  @IsOptional()
  @ValidateNested()
  @IsObject({ message: 'must be a mapping' })
  @Type(() => HttpOAuthSchema)
  oauth?: HttpOAuthSchema;
}

export class BudgetsSchema {
  @Max(BUDGET_BOUNDS.toolTimeoutMs.max)
  @Min(BUDGET_BOUNDS.toolTimeoutMs.min)
  @IsInt()
  tool_timeout_ms: number = BUDGET_BOUNDS.toolTimeoutMs.default;

  @Max(BUDGET_BOUNDS.maxConcurrency.max)
  @Min(BUDGET_BOUNDS.maxConcurrency.min)
  @IsInt()
  max_concurrency: number = BUDGET_BOUNDS.maxConcurrency.default;

  @Max(BUDGET_BOUNDS.maxToolOutputBytes.max)
  @Min(BUDGET_BOUNDS.maxToolOutputBytes.min)
  @IsInt()
  max_tool_output_bytes: number = BUDGET_BOUNDS.maxToolOutputBytes.default;
}

export class RelaySchema {
  @IsBoolean()
  resources = false;

  @IsBoolean()
  prompts = false;
}

export class ApprovalPolicySchema {
  @IsIn(APPROVALS)
  default: Approval = 'never';

  /** Tool globs to `never` or `always`. */
  @BoundedRecord({ maxEntries: L.maxMapEntries, key: patternProblem, value: approvalProblem })
  tools: Record<string, Approval> = {};
}

export class CostSchema {
  @Max(MAX_CALL_COST)
  @Min(0)
  @IsNumber(FINITE, { message: 'must be a finite number' })
  default = 0;

  /** Tool globs to a cost per call. */
  @BoundedRecord({ maxEntries: L.maxMapEntries, key: patternProblem, value: costProblem })
  tools: Record<string, number> = {};
}

/** `approval_policy: always` is short for `{ default: always }`; anything else is left to fail. */
export function toApprovalPolicy({ value }: { value: unknown }): unknown {
  if (typeof value === 'string' && (APPROVALS as readonly string[]).includes(value)) {
    return plainToInstance(ApprovalPolicySchema, { default: value });
  }
  return isMapping(value) ? plainToInstance(ApprovalPolicySchema, value) : value;
}

/** `cost: 2` is short for `{ default: 2 }`. */
export function toCost({ value }: { value: unknown }): unknown {
  if (typeof value === 'number') return plainToInstance(CostSchema, { default: value });
  return isMapping(value) ? plainToInstance(CostSchema, value) : value;
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
