import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

/*
 * OpenAPI descriptions of the `governance` config section as the admin API
 * reads and writes it. Validation is not done here: a PUT body is checked by
 * the config schema itself, so the API and the file accept the same rules.
 */

export class QuotaDto {
  @ApiProperty({ example: 500, description: 'Spending allowed per calendar month (UTC)' })
  monthly_budget!: number;
  @ApiProperty({ example: 60 })
  max_calls_per_minute!: number;
  @ApiProperty({ example: 1000 })
  max_calls_per_day!: number;
  @ApiProperty({ example: 10, description: 'Largest estimated cost of a single call' })
  max_cost_per_call!: number;
}

export class ToolLimitDto {
  @ApiPropertyOptional({ example: 5 })
  max_calls_per_minute?: number;
  @ApiPropertyOptional({ example: 100 })
  max_calls_per_day?: number;
}

export class VisibilityDto {
  @ApiProperty({
    type: [String],
    example: ['*'],
    description: 'Globs over tool names and resource URIs',
  })
  allow!: string[];
  @ApiProperty({ type: [String], example: [] })
  deny!: string[];
}

export class ClientRulesDto {
  @ApiPropertyOptional({ type: () => QuotaDto, description: 'Any default_quota keys to override' })
  quota?: Partial<QuotaDto>;
  @ApiPropertyOptional({ type: [String], description: 'Replaces the default allow list' })
  allow?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Added to the default deny list' })
  deny?: string[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ToolLimitDto) },
    description: 'Keyed by tool name or glob',
  })
  tool_limits?: Record<string, ToolLimitDto>;
}

export class GovernanceRulesDto {
  @ApiProperty()
  enabled!: boolean;
  @ApiProperty({ type: () => QuotaDto })
  default_quota!: QuotaDto;
  @ApiProperty({ description: 'Let calls through unmetered when Redis is unreachable' })
  fail_open!: boolean;
  @ApiProperty({ type: () => VisibilityDto })
  visibility!: VisibilityDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(ClientRulesDto) },
    description: 'Per-client overrides keyed by client id',
  })
  clients!: Record<string, ClientRulesDto>;
}

export class RulesUpdateDto {
  @ApiProperty({ description: 'False when the new rules equal the old ones' })
  changed!: boolean;
  @ApiProperty({ description: 'False when other replicas could not be told (Redis unreachable)' })
  propagated!: boolean;
  @ApiProperty({ type: () => GovernanceRulesDto })
  rules!: GovernanceRulesDto;
}
