import { CompletedCall } from '../json-rpc/call-observers';

/**
 * Why a call was not charged what its handler reported: `capped` (above the
 * most the call may cost, which its budget claim reserved: charged at it) or
 * `invalid_report` (not a finite number >= 0, charged the estimate).
 */
export type CostFlag = 'capped' | 'invalid_report';

export interface ChargedCost {
  cost: number;
  flag: CostFlag | null;
}

const NOTHING: ChargedCost = { cost: 0, flag: null };

/**
 * What a completed call costs its client: the handler's reported cost
 * (capped at the call's maximum: the tool's maxCost or the client's
 * max_cost_per_call, whichever is lower), else its estimate, but only
 * when the handler actually ran (a call refused by governance or by argument
 * validation costs nothing; a call that failed, was cancelled or timed out
 * after it started is charged, or failing or cancelling would dodge
 * budgets). The ledger row and the governance spend both use this one
 * rule, so a restart, which re-reads the ledger, never changes a client's
 * spend. An input-required round is not charged: the retry that completes is.
 */
export function chargedCost(call: CompletedCall): ChargedCost {
  const record = call.context.call;
  if (!record.executed || record.inputRequired) return NOTHING;
  const estimate = record.estimatedCost ?? 0;
  const reported = record.cost;
  if (reported === undefined) {
    return { cost: estimate, flag: record.costReportInvalid ? 'invalid_report' : null };
  }
  if (record.costCap !== undefined && reported > record.costCap) {
    return { cost: record.costCap, flag: 'capped' };
  }
  return { cost: reported, flag: null };
}
