import { Kysely } from 'kysely';
import { LedgerQuery } from './ledger-store';
import { LedgerDatabase } from './ledger.schema';

/**
 * One page of ledger rows, newest first (id order, keyset paging on id).
 * With a client or tool filter, the (client_id, id) or (target, id) index
 * yields its rows already in page order, so a page reads about `limit` rows,
 * not all of the client's.
 */
export function ledgerPageQuery(db: Kysely<LedgerDatabase>, query: LedgerQuery) {
  return db
    .selectFrom('ledger')
    .selectAll()
    .$if(query.clientId !== undefined, (q) => q.where('client_id', '=', query.clientId ?? ''))
    .$if(query.target !== undefined, (q) => q.where('target', '=', query.target ?? ''))
    .$if(query.outcome !== undefined, (q) => q.where('outcome', '=', query.outcome ?? ''))
    .$if(query.from !== undefined, (q) => q.where('time', '>=', query.from ?? 0))
    .$if(query.to !== undefined, (q) => q.where('time', '<', query.to ?? 0))
    .$if(query.beforeId !== undefined, (q) => q.where('id', '<', query.beforeId ?? 0))
    .orderBy('id', 'desc')
    .limit(query.limit);
}
