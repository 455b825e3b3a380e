import { LedgerRow } from '../ledger-row';
import { ClientUsage } from '../ledger-store';
import { emptyUsage, TOP_TOOLS_LIMIT } from '../ledger-usage.query';
import { usageWindows } from '../usage-windows';

/**
 * What `usage()` must answer, computed the plain way: by reading every row.
 * The summary tables are only a faster route to these numbers; the contract
 * tests compare the two after inserts, denials, pruning and backfill.
 */
export function referenceUsage(
  rows: readonly LedgerRow[],
  now: number,
  clientId?: string,
): ClientUsage[] {
  const windows = usageWindows(now);
  const usage = new Map<string, ClientUsage>();
  const tools = new Map<string, Map<string, number>>();
  const entry = (id: string): ClientUsage => {
    const found = usage.get(id) ?? emptyUsage(id);
    usage.set(id, found);
    return found;
  };
  if (clientId !== undefined) entry(clientId);
  const counted = rows.filter(
    (row) => row.time >= windows.month && (clientId === undefined || row.clientId === clientId),
  );
  for (const row of [...counted].sort((a, b) => a.time - b.time)) {
    const client = entry(row.clientId);
    client.callsThisMonth++;
    if (row.time >= windows.day) client.callsToday++;
    if (row.time >= windows.minute) client.callsThisMinute++;
    client.spendThisMonth += row.cost;
    if (row.outcome === 'denied') {
      const reason = row.denialReason ?? 'unknown';
      client.denialsByReason[reason] = (client.denialsByReason[reason] ?? 0) + 1;
    }
    if (row.method === 'tools/call') {
      const byTarget = tools.get(row.clientId) ?? new Map<string, number>();
      tools.set(row.clientId, byTarget);
      byTarget.set(row.target, (byTarget.get(row.target) ?? 0) + 1);
    }
  }
  for (const [id, byTarget] of tools) {
    entry(id).topTools = [...byTarget]
      .map(([target, calls]) => ({ target, calls }))
      .sort((a, b) => b.calls - a.calls || a.target.localeCompare(b.target))
      .slice(0, TOP_TOOLS_LIMIT);
  }
  return [...usage.values()].sort((a, b) => a.clientId.localeCompare(b.clientId));
}
