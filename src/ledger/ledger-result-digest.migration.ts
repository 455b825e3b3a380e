import { Kysely, Migration } from 'kysely';
import { addNullableTextColumns } from './ledger-add-columns.migration';
import { LedgerConnection } from './ledger-connection';

/**
 * 0006: `error_message` (redacted, bounded) and `result_sha256` (the digest
 * of the bytes `result_bytes` counts) on `ledger` and SQLite's
 * `ledger_inbox`, so a row says what went wrong and which result was sent
 * (seed R5.6, R8.6). Older rows keep null in both.
 */
export function addErrorMessageAndResultDigest(driver: LedgerConnection['driver']): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addNullableTextColumns(db, driver, ['error_message', 'result_sha256']);
    },
  };
}
