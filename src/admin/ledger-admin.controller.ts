import { Get, Inject, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { LEDGER_STORE, LedgerStore } from '../ledger/ledger-store';
import { readLedger } from './admin-ledger-read';
import { AdminController } from './admin-controller.decorator';
import { parseLedgerAdminQuery } from './ledger-admin-query.parser';
import { LedgerAdminQuery } from './ledger-admin.query';
import { encodeLedgerCursor } from './ledger-cursor';
import { LedgerPageDto, toLedgerEntry } from './ledger-entry.dto';

@AdminController('ledger', 'ledger')
export class LedgerAdminController {
  constructor(@Inject(LEDGER_STORE) private readonly store: LedgerStore) {}

  @Get()
  @ApiOperation({ summary: 'Ledger rows, newest first, filtered and paged by cursor' })
  @ApiOkResponse({ type: LedgerPageDto })
  @ApiBadRequestResponse({ description: 'A filter is invalid; the message names it' })
  @ApiServiceUnavailableResponse({ description: 'The ledger cannot be read' })
  async list(@Query() raw: LedgerAdminQuery): Promise<LedgerPageDto> {
    const query = parseLedgerAdminQuery(raw as Record<string, unknown>);
    // One row more than asked tells whether another page exists.
    const rows = await readLedger('ledger rows', () =>
      this.store.query({ ...query, limit: query.limit + 1 }),
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(toLedgerEntry),
      ...(rows.length > query.limit && last ? { nextCursor: encodeLedgerCursor(last.id) } : {}),
    };
  }
}
