import { Injectable, Logger } from '@nestjs/common';
import { GovernanceConfig } from '../../config/gateway-config';
import { GovernanceRules, RulesSource } from './governance-rules';
import { GovernanceRulesValidator } from './governance-rules.validator';
import { RulesBroadcast } from './rules.broadcast';

export type RulesUpdate =
  | {
      ok: true;
      rules: GovernanceConfig;
      /** False when the candidate equals the rules in force. */
      changed: boolean;
      /** False when other replicas could not be told (Redis unreachable). */
      propagated: boolean;
    }
  | { ok: false; problems: string[] };

/**
 * The one way new rules come in (file, SIGHUP, admin API): validated with
 * the boot schema, installed, and sent to the other replicas. Invalid rules
 * change nothing; the reasons are logged and returned.
 */
@Injectable()
export class GovernanceRulesUpdater {
  private readonly logger = new Logger('Governance');

  constructor(
    private readonly rules: GovernanceRules,
    private readonly validator: GovernanceRulesValidator,
    private readonly broadcast: RulesBroadcast,
  ) {}

  async update(candidate: unknown, source: RulesSource): Promise<RulesUpdate> {
    const result = this.validator.validate(candidate);
    if (!result.ok) {
      this.logger.warn({
        msg: 'governance rules rejected; the old rules stay',
        source,
        problems: result.problems,
      });
      return result;
    }
    const changed = this.rules.replace(result.rules, source);
    const propagated = changed ? await this.broadcast.publish(result.rules) : true;
    return { ok: true, rules: this.rules.current, changed, propagated };
  }
}
