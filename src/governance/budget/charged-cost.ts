import { CompletedCall } from '../../json-rpc/call-observers';
import { callOutcome } from '../../ledger/ledger-outcome';

/**
 * What a completed call costs the client, exactly as its ledger row charges
 * it (see toLedgerRow): the reported cost, else the estimate; nothing for
 * denied and cancelled calls. The cache and the ledger must agree, or a
 * restart (which re-reads the ledger) would change the spend.
 */
export function chargedCost(call: CompletedCall): number {
  const { outcome } = callOutcome(call);
  if (outcome === 'denied' || outcome === 'cancelled') return 0;
  return call.context.call.cost ?? call.context.call.estimatedCost ?? 0;
}
