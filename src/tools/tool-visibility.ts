import { Injectable, Optional } from '@nestjs/common';
import { ScopeGrants } from '../governance/identity/oauth/scope-grants';
import { VisibilityPolicy } from '../governance/visibility/visibility.policy';
import { RegisteredTool } from './registered-tool';

/**
 * Whether a client may see (and therefore call) a tool. Lists and calls ask
 * the same question here, so what is hidden from a list is also refused; the
 * answer is governance's VisibilityPolicy (per-client globs, handler-level
 * `hidden`). Without governance in the graph only `hidden` counts.
 */
@Injectable()
export class ToolVisibility {
  constructor(
    @Optional() private readonly policy?: VisibilityPolicy,
    @Optional() private readonly scopes?: ScopeGrants,
  ) {}

  /** `granted`: an OAuth caller's scopes, which must cover a tool some `auth.oauth.scopes` entry names. */
  isVisible(tool: RegisteredTool, clientId: string, granted?: ReadonlySet<string>): boolean {
    if (this.scopes && !this.scopes.allows('tool', tool.name, granted)) return false;
    if (!this.policy) return tool.options.visibility !== 'hidden';
    return this.policy.isToolVisible(tool.name, clientId, tool.options.visibility);
  }

  /** Whether a tool's description may carry the text of its linked skill for this client. */
  mayReadSkill(skillUri: string, clientId: string): boolean {
    return this.policy?.isResourceVisible(skillUri, clientId) ?? true;
  }
}
