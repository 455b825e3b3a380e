import { Kysely, Migration } from 'kysely';
import { addNullableTextColumns } from './ledger-add-columns.migration';
import { LedgerConnection } from './ledger-connection';

/**
 * 0005: `cost_flag` on `ledger` (and SQLite's `ledger_inbox`): why a row's
 * cost is not what the tool reported (`capped` at the call's maximum, or
 * `invalid_report`). Nullable, so existing rows need no rewrite.
 */
export function addCostFlag(driver: LedgerConnection['driver']): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addNullableTextColumns(db, driver, ['cost_flag']);
    },
  };
}
