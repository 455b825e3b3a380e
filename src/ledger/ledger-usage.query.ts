import { Kysely, sql } from 'kysely';
import { LedgerConnection } from './ledger-connection';
import { ClientUsage } from './ledger-store';
import { LedgerDatabase } from './ledger.schema';
import { usageWindows } from './usage-windows';

/** How many tools `usage()` lists per client, most called first. */
export const TOP_TOOLS_LIMIT = 10;

interface UsagePart {
  part: 'month' | 'day' | 'minute';
  client_id: string;
  method: string | null;
  target: string | null;
  outcome: string | null;
  reason: string | null;
  calls: number | string;
  spend: number | null;
}

/**
 * Usage per client this month (UTC calendar windows). The month and the day
 * come from the summary the triggers keep (a few rows per client and tool),
 * this minute from the rows themselves through the (time, client_id) index.
 * One statement, so all three parts see the same committed rows. Every
 * recorded call counts as a call, denied ones included; spend only counts
 * what was charged (the rows' cost).
 */
export async function queryUsage(
  db: Kysely<LedgerDatabase>,
  driver: LedgerConnection['driver'],
  now: number,
  clientId?: string,
): Promise<ClientUsage[]> {
  const windows = usageWindows(now);
  const ofClient = clientId === undefined ? sql`` : sql`and client_id = ${clientId}`;
  // Without statistics on the index (no ANALYZE yet), SQLite would rather read every row
  // through (client_id, id) to skip sorting the groups than the minute's few through time.
  const byTime = driver === 'sqlite' ? sql`indexed by ledger_time_client_idx` : sql``;
  const { rows } = await sql<UsagePart>`
    select 'month' as part, client_id, method, target, outcome, reason, calls, spend
      from ledger_usage where month >= ${windows.month} and calls > 0 ${ofClient}
    union all
    select 'day', client_id, null, null, null, null, sum(calls), null
      from ledger_daily_calls where day >= ${windows.day} and calls > 0 ${ofClient}
      group by client_id
    union all
    select 'minute', client_id, null, null, null, null, count(*), null
      from ledger ${byTime} where time >= ${windows.minute} ${ofClient}
      group by client_id`.execute(db);

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
  const tools = new Map<ClientUsage, Map<string, number>>();
  for (const row of rows) {
    const client = entry(row.client_id);
    const calls = Number(row.calls);
    if (row.part === 'minute') client.callsThisMinute = calls;
    else if (row.part === 'day') client.callsToday = calls;
    else {
      client.callsThisMonth += calls;
      client.spendThisMonth += Number(row.spend ?? 0);
      if (row.outcome === 'denied') {
        const reason = row.reason ?? 'unknown';
        client.denialsByReason[reason] = (client.denialsByReason[reason] ?? 0) + calls;
      }
      if (row.method === 'tools/call' && row.target !== null) {
        const byTarget = tools.get(client) ?? new Map<string, number>();
        tools.set(client, byTarget);
        byTarget.set(row.target, (byTarget.get(row.target) ?? 0) + calls);
      }
    }
  }
  for (const [client, byTarget] of tools) {
    client.topTools = [...byTarget]
      .map(([target, calls]) => ({ target, calls }))
      .sort((a, b) => b.calls - a.calls || a.target.localeCompare(b.target))
      .slice(0, TOP_TOOLS_LIMIT);
  }
  return [...usage.values()].sort((a, b) => a.clientId.localeCompare(b.clientId));
}

/** A client's usage before any call is counted. */
export function emptyUsage(clientId: string): ClientUsage {
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
