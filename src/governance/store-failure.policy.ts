import { Injectable } from '@nestjs/common';
import { GovernanceDecisions } from './governance-decisions';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './governance.constants';
import { GovernedCall } from './governed-call';
import { GovernedCallState } from './governed-call.state';
import { GovernanceRules } from './rules/governance-rules';

/**
 * What a guard does when its store (Redis, or the ledger it seeds from)
 * cannot answer: refuse with governance_unavailable (the default; the client
 * may retry in a second) or, with governance.fail_open, let the call through
 * unmetered.
 */
@Injectable()
export class StoreFailurePolicy {
  constructor(
    private readonly rules: GovernanceRules,
    private readonly decisions: GovernanceDecisions,
    private readonly state: GovernedCallState,
  ) {}

  /** Returns when the call may go on; throws the denial otherwise. */
  handle(call: GovernedCall, stage: 'budget' | 'rate_limit', err: unknown): void {
    const error = err instanceof Error ? err.message : String(err);
    if (this.rules.current.fail_open) {
      this.decisions.failOpen(call, stage, error);
      return;
    }
    throw this.decisions.deny(
      call,
      'governance_unavailable',
      'Governance is unavailable (the quota store does not answer); retry shortly',
      {
        retryable: true,
        retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
        remaining: this.state.remaining(call.context),
        data: { stage },
      },
    );
  }
}
