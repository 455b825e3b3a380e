import { Kysely, Migration } from 'kysely';
import { addNullableTextColumns } from './ledger-add-columns.migration';
import { LedgerConnection } from './ledger-connection';

/**
 * 0008: `subject` and `token_id` on `ledger` and SQLite's `ledger_inbox`, so
 * a call made with an OAuth access token names who it acted for (`sub`) and
 * which token it was (`jti`) without keeping the token (#20). API-key,
 * header and stdio callers and older rows keep null in both.
 */
export function addTokenIdentityColumns(driver: LedgerConnection['driver']): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addNullableTextColumns(db, driver, ['subject', 'token_id']);
    },
  };
}
