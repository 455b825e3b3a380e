import { ApiPropertyOptional } from '@nestjs/swagger';
import { LEDGER_OUTCOMES, LedgerOutcome } from '../ledger/ledger-row';

export const LEDGER_PAGE_DEFAULT = 100;
export const LEDGER_PAGE_MAX = 500;

const TIME_FORMAT =
  'An ISO 8601 date (2026-03-01), a date-time with an offset (2026-03-01T12:00:00Z) or epoch milliseconds';

/** Query string of GET /admin/ledger, as documented; parseLedgerAdminQuery validates it. */
export class LedgerAdminQuery {
  @ApiPropertyOptional({ description: 'Only rows of this client id', type: String })
  client?: string;

  @ApiPropertyOptional({
    description: 'Only rows for this tool name or resource URI',
    type: String,
  })
  target?: string;

  @ApiPropertyOptional({ description: 'Only rows with this outcome', enum: LEDGER_OUTCOMES })
  outcome?: LedgerOutcome;

  @ApiPropertyOptional({ description: `Rows at or after this time. ${TIME_FORMAT}`, type: String })
  from?: string;

  @ApiPropertyOptional({ description: `Rows before this time. ${TIME_FORMAT}`, type: String })
  to?: string;

  @ApiPropertyOptional({
    description: 'Rows per page',
    type: Number,
    minimum: 1,
    maximum: LEDGER_PAGE_MAX,
    default: LEDGER_PAGE_DEFAULT,
  })
  limit?: string;

  @ApiPropertyOptional({
    description: "The previous page's nextCursor (pages go from newest to oldest)",
    type: String,
  })
  cursor?: string;
}
