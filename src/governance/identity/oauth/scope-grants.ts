import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../../config/config.constants';
import { GatewayConfig } from '../../../config/gateway-config';
import { GovernedKind } from '../../governed-call';
import { anyGlobMatches } from '../../visibility/glob-match';

type GrantLists = Record<GovernedKind, string[]>;

/**
 * `auth.oauth.scopes`: which scope unlocks which tools, resources and
 * prompts. A target some scope names needs one of those scopes; a target no
 * scope names needs none. Callers without a token (API keys, stdio) carry no
 * scopes and are not judged here: their reach is governance's visibility.
 */
@Injectable()
export class ScopeGrants {
  private readonly grants: Array<{ scope: string; lists: GrantLists }>;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.grants = Object.entries(config.auth.oauth.scopes).map(([scope, grant]) => ({
      scope,
      lists: {
        tool: grant.tools,
        resource: grant.resources,
        prompt: grant.prompts,
      },
    }));
  }

  get empty(): boolean {
    return this.grants.length === 0;
  }

  /** Every scope that unlocks the target; empty when no scope names it. */
  scopesFor(kind: GovernedKind, target: string): string[] {
    return this.grants
      .filter(({ lists }) => anyGlobMatches(lists[kind], target))
      .map(({ scope }) => scope);
  }

  /** Whether a caller holding `granted` (undefined: no token) may reach the target. */
  allows(kind: GovernedKind, target: string, granted: ReadonlySet<string> | undefined): boolean {
    if (granted === undefined || this.grants.length === 0) return true;
    const needed = this.scopesFor(kind, target);
    return needed.length === 0 || needed.some((scope) => granted.has(scope));
  }
}
