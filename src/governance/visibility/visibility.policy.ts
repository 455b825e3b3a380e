import { Injectable } from '@nestjs/common';
import { GovernanceRules } from '../rules/governance-rules';
import { RulesMemo } from '../rules/rules-memo';
import { anyGlobMatches } from './glob-match';

/**
 * What a client may see: the default `governance.visibility` allow/deny
 * globs, where a client's own `allow` replaces the default allow and its
 * `deny` adds to the default deny. Lists filter with it and calls are checked
 * with it, so a hidden tool or resource is never listed and never served.
 */
@Injectable()
export class VisibilityPolicy {
  private readonly visible: RulesMemo<boolean>;

  constructor(private readonly rules: GovernanceRules) {
    this.visible = new RulesMemo(rules);
  }

  /** A handler marked `visibility: 'hidden'` is hidden from everyone, whatever the rules say. */
  isToolVisible(name: string, clientId: string, handlerVisibility?: 'public' | 'hidden'): boolean {
    return handlerVisibility !== 'hidden' && this.isVisible(name, clientId);
  }

  /** `uri` is the skill's own URI (`skill://<category>/<name>`); its files share its visibility. */
  isResourceVisible(uri: string, clientId: string): boolean {
    return this.isVisible(uri, clientId);
  }

  private isVisible(target: string, clientId: string): boolean {
    return this.visible.get(clientId, target, () => this.matchVisible(target, clientId));
  }

  private matchVisible(target: string, clientId: string): boolean {
    const rules = this.rules.current;
    if (!rules.enabled) return true;
    const client = this.rules.clientRules(clientId);
    const allow = client?.allow ?? rules.visibility.allow;
    const deny = [...rules.visibility.deny, ...(client?.deny ?? [])];
    return anyGlobMatches(allow, target) && !anyGlobMatches(deny, target);
  }
}
