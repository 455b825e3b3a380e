import { Kysely } from 'kysely';
import { ClientUsage } from './ledger-store';
import { LedgerDatabase } from './ledger.schema';
import { usageWindows } from './usage-windows';

/** How many tools `usage()` lists per client, most called first. */
export const TOP_TOOLS_LIMIT = 10;

/**
 * Usage per client this month (UTC calendar windows), in three grouped
 * queries: totals, denials by reason, calls by tool. Every recorded call
 * counts as a call, denied ones included; spend only counts what was charged.
 */
export async function queryUsage(
  db: Kysely<LedgerDatabase>,
  now: number,
  clientId?: string,
): Promise<ClientUsage[]> {
  const windows = usageWindows(now);
  const thisMonth = db
    .selectFrom('ledger')
    .where('time', '>=', windows.month)
    .$if(clientId !== undefined, (q) => q.where('client_id', '=', clientId ?? ''));

  const totals = await thisMonth
    .select((eb) => [
      'client_id',
      eb.fn.countAll().as('calls_month'),
      eb.fn
        .sum(eb.case().when('time', '>=', windows.minute).then(1).else(0).end())
        .as('calls_minute'),
      eb.fn.sum(eb.case().when('time', '>=', windows.day).then(1).else(0).end()).as('calls_day'),
      eb.fn.sum('cost').as('spend'),
    ])
    .groupBy('client_id')
    .execute();
  const denials = await thisMonth
    .where('outcome', '=', 'denied')
    .select((eb) => ['client_id', 'denial_reason', eb.fn.countAll().as('count')])
    .groupBy(['client_id', 'denial_reason'])
    .execute();
  const tools = await thisMonth
    .where('method', '=', 'tools/call')
    .select((eb) => ['client_id', 'target', eb.fn.countAll().as('calls')])
    .groupBy(['client_id', 'target'])
    .execute();

  const usage = new Map<string, ClientUsage>();
  const entry = (id: string): ClientUsage => {
    let found = usage.get(id);
    if (!found) {
      found = emptyUsage(id);
      usage.set(id, found);
    }
    return found;
  };
  if (clientId !== undefined) entry(clientId);
  for (const row of totals) {
    Object.assign(entry(row.client_id), {
      callsThisMinute: Number(row.calls_minute ?? 0),
      callsToday: Number(row.calls_day ?? 0),
      callsThisMonth: Number(row.calls_month),
      spendThisMonth: Number(row.spend ?? 0),
    });
  }
  for (const row of denials) {
    entry(row.client_id).denialsByReason[row.denial_reason ?? 'unknown'] = Number(row.count);
  }
  for (const row of tools) {
    entry(row.client_id).topTools.push({ target: row.target, calls: Number(row.calls) });
  }
  for (const client of usage.values()) {
    client.topTools.sort((a, b) => b.calls - a.calls || a.target.localeCompare(b.target));
    client.topTools.splice(TOP_TOOLS_LIMIT);
  }
  return [...usage.values()].sort((a, b) => a.clientId.localeCompare(b.clientId));
}

function emptyUsage(clientId: string): ClientUsage {
  return {
    clientId,
    callsThisMinute: 0,
    callsToday: 0,
    callsThisMonth: 0,
    spendThisMonth: 0,
    denialsByReason: {},
    topTools: [],
  };
}
