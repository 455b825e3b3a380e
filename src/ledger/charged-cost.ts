import { CompletedCall } from '../json-rpc/call-observers';

/**
 * What a completed call costs its client: the handler's reported cost, else
 * its estimate, but only when the handler actually ran (a call refused by
 * governance or by argument validation costs nothing; a call cancelled or
 * timed out after it started is charged, or cancelling would dodge budgets).
 * The ledger row and the governance spend cache both use this one rule, so a
 * restart, which re-reads the ledger, never changes a client's spend.
 */
export function chargedCost(call: CompletedCall): number {
  const record = call.context.call;
  if (!record.executed) return 0;
  return record.cost ?? record.estimatedCost ?? 0;
}
