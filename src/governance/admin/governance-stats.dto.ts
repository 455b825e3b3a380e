import { ApiProperty } from '@nestjs/swagger';
import { QuotaDto, ToolLimitDto } from './governance-rules.dto';

export class ToolUsageDto {
  @ApiProperty({ example: 'inventory_reorder_report' })
  tool!: string;
  @ApiProperty({ example: 42 })
  calls!: number;
}

/** One client's usage, from the ledger (the same on every replica). */
export class ClientStatsDto {
  @ApiProperty({ example: 'acme-bot' })
  client_id!: string;
  @ApiProperty({ description: 'Calls recorded this UTC minute (denied ones included)' })
  calls_this_minute!: number;
  @ApiProperty()
  calls_today!: number;
  @ApiProperty()
  calls_this_month!: number;
  @ApiProperty()
  spend_this_month!: number;
  @ApiProperty()
  monthly_budget!: number;
  @ApiProperty()
  remaining_budget!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { rate_limited: 3 },
  })
  denials_by_reason!: Record<string, number>;
  @ApiProperty({ type: [ToolUsageDto] })
  top_tools!: ToolUsageDto[];
}

export class StatsTotalsDto {
  @ApiProperty()
  clients!: number;
  @ApiProperty()
  calls_this_minute!: number;
  @ApiProperty()
  calls_today!: number;
  @ApiProperty()
  calls_this_month!: number;
  @ApiProperty()
  spend_this_month!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' } })
  denials_by_reason!: Record<string, number>;
}

export class GovernanceStatsDto {
  @ApiProperty({ example: '2026-03-14T09:26:53.000Z' })
  generated_at!: string;
  @ApiProperty({ type: StatsTotalsDto })
  totals!: StatsTotalsDto;
  @ApiProperty({ type: [ClientStatsDto], description: 'Every client with calls this month' })
  clients!: ClientStatsDto[];
}

/** One client: usage plus the rules that apply to it now. */
export class ClientGovernanceDto extends ClientStatsDto {
  @ApiProperty({ type: QuotaDto, description: 'Effective quota (client overrides on defaults)' })
  quota!: QuotaDto;
  @ApiProperty({ type: [String] })
  allow!: string[];
  @ApiProperty({ type: [String] })
  deny!: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'object' } })
  tool_limits!: Record<string, ToolLimitDto>;
}
