/** Why governance refused a call: `error.data.reason` of a -32003 and the ledger's denial_reason. */
export type DenialReason =
  | 'budget_exceeded'
  | 'cost_per_call_exceeded'
  | 'rate_limited'
  | 'forbidden'
  | 'governance_unavailable'
  /** An upstream tool with `approval_policy: always` that the client did not approve. */
  | 'approval_required';

/** Quota left after (or, for a denial, at) a decision; absent members were not evaluated. */
export interface RemainingQuota {
  calls_minute?: number;
  calls_day?: number;
  budget?: number;
}
