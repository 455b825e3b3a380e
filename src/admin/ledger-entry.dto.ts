import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CostFlag } from '../ledger/charged-cost';
import { LEDGER_OUTCOMES, LedgerOutcome, StoredLedgerRow } from '../ledger/ledger-row';
import { LEDGER_ERROR_MESSAGE_MAX } from '../ledger/ledger.constants';

/** One ledger row as the admin API shows it. */
export class LedgerEntryDto {
  @ApiProperty({ description: 'Row id (increases with every row)', type: Number })
  id!: number;

  @ApiProperty({ description: 'When the call started, epoch milliseconds', type: Number })
  time!: number;

  @ApiProperty({ description: 'When the call started, ISO 8601 (UTC)', type: String })
  timestamp!: string;

  @ApiProperty({
    description: 'JSON-RPC id, "s:" (string) or "n:" (number) prefixed',
    type: String,
  })
  requestId!: string;

  @ApiProperty({ type: String })
  traceId!: string;

  @ApiProperty({ type: String })
  clientId!: string;

  @ApiProperty({ type: String })
  sessionId!: string;

  @ApiProperty({ description: 'stdio, streamable-http or sse', type: String })
  transport!: string;

  @ApiProperty({ description: 'tools/call, resources/read or prompts/get', type: String })
  method!: string;

  @ApiProperty({ description: 'Tool name, resource URI or prompt name', type: String })
  target!: string;

  @ApiProperty({
    description:
      'For a call to an upstream (federated) tool: the server_id of the upstream; null for local tools, resources and prompts',
    type: String,
    nullable: true,
  })
  upstreamServer!: string | null;

  @ApiProperty({
    description:
      "For a call to an upstream tool: the tool's own name on that server (target is the exposed name); null otherwise",
    type: String,
    nullable: true,
  })
  upstreamTool!: string | null;

  @ApiProperty({
    description:
      "For a call made with an OAuth access token: the token's subject (sub claim); null for API-key, header and stdio callers",
    type: String,
    nullable: true,
  })
  subject!: string | null;

  @ApiProperty({
    description:
      "For a call made with an OAuth access token: the token's id (jti claim), null when it has none; the token itself is never recorded",
    type: String,
    nullable: true,
  })
  tokenId!: string | null;

  @ApiProperty({
    description: 'Arguments after redaction; null when argument recording is off',
    type: 'object',
    additionalProperties: true,
    nullable: true,
  })
  arguments!: unknown;

  @ApiProperty({ enum: LEDGER_OUTCOMES })
  outcome!: LedgerOutcome;

  @ApiProperty({ description: 'JSON-RPC error code', type: Number, nullable: true })
  errorCode!: number | null;

  @ApiProperty({ description: 'Governance denial reason', type: String, nullable: true })
  denialReason!: string | null;

  @ApiProperty({ type: Number })
  durationMs!: number;

  @ApiProperty({ description: 'Budget units charged', type: Number })
  cost!: number;

  @ApiProperty({ description: 'Bytes of the JSON result (0 when there is none)', type: Number })
  resultBytes!: number;

  @ApiProperty({
    description:
      'SHA-256 (lowercase hex) of the same JSON bytes resultBytes counts; null when there is no result',
    type: String,
    nullable: true,
    pattern: '^[0-9a-f]{64}$',
  })
  resultSha256!: string | null;

  @ApiProperty({
    description: `What the client was told went wrong (the JSON-RPC error message, or the text of a tool error), with the values of ledger.redact_keys keys redacted, at most ${LEDGER_ERROR_MESSAGE_MAX} characters; null on success and for cancelled calls`,
    type: String,
    nullable: true,
    maxLength: LEDGER_ERROR_MESSAGE_MAX,
  })
  errorMessage!: string | null;

  @ApiProperty({
    description:
      'Why the cost is not what the tool reported: capped (above the tool maxCost or the client max_cost_per_call, charged at it) or invalid_report (charged the estimate)',
    enum: ['capped', 'invalid_report'],
    nullable: true,
  })
  costFlag!: CostFlag | null;
}

export class LedgerPageDto {
  @ApiProperty({ type: [LedgerEntryDto] })
  items!: LedgerEntryDto[];

  @ApiPropertyOptional({
    description: 'Pass as cursor for the next (older) page; absent on the last page',
    type: String,
  })
  nextCursor?: string;
}

export function toLedgerEntry(row: StoredLedgerRow): LedgerEntryDto {
  return {
    ...row,
    timestamp: new Date(row.time).toISOString(),
    arguments: row.arguments === null ? null : (JSON.parse(row.arguments) as unknown),
  };
}
