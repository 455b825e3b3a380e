import { Injectable, Logger } from '@nestjs/common';
import { DenialReason, RemainingQuota } from './denial-reason';
import { DenialDetails, GovernanceDeniedError } from './governance-denied.error';
import { GovernanceMetrics } from './governance.metrics';
import { GovernedCall } from './governed-call';

/**
 * The one place a governance decision is taken note of: a log line (client,
 * target, decision, reason, remaining quota), the decisions metric, and for
 * a denial the call record the ledger reads. An allowed call is logged at
 * debug, since the ledger and the metric already record every call.
 */
@Injectable()
export class GovernanceDecisions {
  private readonly logger = new Logger('Governance');

  constructor(private readonly metrics: GovernanceMetrics) {}

  allow(call: GovernedCall, remaining: RemainingQuota, reason = 'within_quota'): void {
    this.metrics.decision('allow', reason);
    this.logger.debug({
      msg: 'governance decision',
      ...describe(call),
      decision: 'allow',
      reason,
      remaining,
    });
  }

  /** Records the denial and returns the error to throw. */
  deny(
    call: GovernedCall,
    reason: DenialReason,
    message: string,
    details: DenialDetails,
  ): GovernanceDeniedError {
    call.context.call.denialReason = reason;
    this.metrics.decision('deny', reason);
    this.logger.log({
      msg: 'governance decision',
      ...describe(call),
      decision: 'deny',
      reason,
      remaining: details.remaining,
      retryAfter: details.retryAfter,
    });
    return new GovernanceDeniedError(reason, message, details);
  }

  /** The target is hidden from this client; it is answered as not found, not as a denial. */
  hidden(call: GovernedCall): void {
    this.metrics.decision('deny', 'not_visible');
    this.logger.log({
      msg: 'governance decision',
      ...describe(call),
      decision: 'deny',
      reason: 'not_visible',
    });
  }

  /** A store failure let through because governance.fail_open is set. */
  failOpen(call: GovernedCall, stage: string, error: string): void {
    this.metrics.decision('allow', 'fail_open');
    this.logger.warn({
      msg: 'governance decision',
      ...describe(call),
      decision: 'allow',
      reason: 'fail_open',
      stage,
      error,
    });
  }
}

function describe(call: GovernedCall) {
  return { client: call.clientId, method: call.context.method, target: call.target };
}
