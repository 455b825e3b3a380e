import { Kysely, Migration } from 'kysely';
import { addNullableTextColumns } from './ledger-add-columns.migration';
import { LedgerConnection } from './ledger-connection';

/**
 * 0007: `upstream_server` and `upstream_tool` on `ledger` and SQLite's
 * `ledger_inbox`, so a call to an upstream tool names the server and the
 * tool's own name, whatever name clients saw (#16). Local tools and older
 * rows keep null in both.
 */
export function addUpstreamColumns(driver: LedgerConnection['driver']): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await addNullableTextColumns(db, driver, ['upstream_server', 'upstream_tool']);
    },
  };
}
