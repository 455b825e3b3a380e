import { Kysely } from 'kysely';
import { LedgerDatabase } from './ledger.schema';
import { startOfUtcMonth } from './usage-windows';

/**
 * Sum of the client's charged cost in rows with time >= `from`. From a UTC
 * month start (the monthly budget's only question) the month summary
 * answers in a few rows, however many calls the client made; from any
 * other instant the rows are read. Both count the same rows; the sums may
 * differ in the last bits of a float, as two scans in different orders do.
 */
export async function querySpendSince(
  db: Kysely<LedgerDatabase>,
  clientId: string,
  from: number,
): Promise<number> {
  const row =
    startOfUtcMonth(from) === from
      ? await db
          .selectFrom('ledger_usage')
          .select((eb) => eb.fn.sum<number | string | null>('spend').as('spend'))
          .where('client_id', '=', clientId)
          .where('month', '>=', from)
          .where('calls', '>', 0)
          .executeTakeFirst()
      : await db
          .selectFrom('ledger')
          .select((eb) => eb.fn.sum<number | string | null>('cost').as('spend'))
          .where('client_id', '=', clientId)
          .where('time', '>=', from)
          .executeTakeFirst();
  return Number(row?.spend ?? 0);
}
