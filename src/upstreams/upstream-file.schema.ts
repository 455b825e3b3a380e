// class-transformer's @Type reads design-time metadata; the registry is also read without Nest.
import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  ApprovalPolicySchema,
  BudgetsSchema,
  CostSchema,
  HttpBlockSchema,
  RelaySchema,
  StdioBlockSchema,
  toApprovalPolicy,
  toCost,
} from './upstream-blocks.schema';
import { IsGlob } from '../config/glob.validator';
import { UPSTREAM_TRANSPORTS, UpstreamTransport } from './upstream-record';
import { IDLE_TIMEOUT_BOUNDS, REGISTRY_LIMITS as L } from './upstream-registry.limits';

export const SERVER_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const ID_RULE = 'must be 1-32 characters of a-z, 0-9, "_" and "-", starting with a letter or digit';
const MAPPING = { message: 'must be a mapping' };

/**
 * One registry file, `version: 1`, as written: what may be set, its bounds,
 * and the defaults of what is left out (property initialisers, which
 * class-transformer keeps for absent keys). Which transport block is required
 * is checked by upstream-record.validator.ts, which can name both keys.
 */
export class UpstreamFileSchema {
  @Equals(1, { message: 'must be 1 (the only registry file version this gateway reads)' })
  @IsDefined({ message: 'is required; write version: 1' })
  version!: number;

  @Matches(SERVER_ID_PATTERN, { message: ID_RULE })
  @IsString()
  @IsDefined({ message: 'is required' })
  server_id!: string;

  @IsOptional()
  @MaxLength(L.maxDisplayNameLength)
  @IsNotEmpty()
  @IsString()
  display_name?: string;

  @IsIn(UPSTREAM_TRANSPORTS, { message: `must be one of ${UPSTREAM_TRANSPORTS.join(', ')}` })
  @IsDefined({ message: 'is required' })
  transport!: UpstreamTransport;

  @IsOptional()
  @ValidateNested()
  @IsObject(MAPPING)
  @Type(() => StdioBlockSchema)
  stdio?: StdioBlockSchema;

  @IsOptional()
  @ValidateNested()
  @IsObject(MAPPING)
  @Type(() => HttpBlockSchema)
  http?: HttpBlockSchema;

  /** Defaults to the server_id. */
  @IsOptional()
  @Matches(SERVER_ID_PATTERN, { message: ID_RULE })
  @IsString()
  tool_namespace?: string;

  @IsGlob()
  @MaxLength(L.maxNameLength, { each: true })
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @ArrayMaxSize(L.maxListItems)
  @IsArray()
  allowed_tools: string[] = [];

  @IsGlob()
  @MaxLength(L.maxNameLength, { each: true })
  @IsNotEmpty({ each: true })
  @IsString({ each: true })
  @ArrayMaxSize(L.maxListItems)
  @IsArray()
  denied_tools: string[] = [];

  @ValidateNested()
  @IsObject({ message: 'must be never, always, or a mapping { default, tools }' })
  @Transform(toApprovalPolicy)
  approval_policy: ApprovalPolicySchema = new ApprovalPolicySchema();

  @ValidateNested()
  @IsObject(MAPPING)
  @Type(() => BudgetsSchema)
  budgets: BudgetsSchema = new BudgetsSchema();

  @ValidateNested()
  @IsObject({ message: 'must be a number or a mapping { default, tools }' })
  @Transform(toCost)
  cost: CostSchema = new CostSchema();

  @ValidateNested()
  @IsObject(MAPPING)
  @Type(() => RelaySchema)
  relay: RelaySchema = new RelaySchema();

  @IsBoolean()
  required = false;

  @IsBoolean()
  warm = false;

  @Max(IDLE_TIMEOUT_BOUNDS.max)
  @Min(IDLE_TIMEOUT_BOUNDS.min)
  @IsInt()
  idle_timeout_seconds: number = IDLE_TIMEOUT_BOUNDS.default;
}
