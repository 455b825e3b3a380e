import { Injectable, Optional } from '@nestjs/common';
import { ScopeGrants } from '../governance/identity/oauth/scope-grants';
import { VisibilityPolicy } from '../governance/visibility/visibility.policy';
import { RegisteredPrompt } from './registered-prompt';

/**
 * Whether a client may see (and therefore get, or complete the arguments of)
 * a prompt. Lists, gets and completions ask the same question here; the
 * answer is governance's VisibilityPolicy (`prompt:<name>` and the prompt's
 * `reads`). Without governance in the graph every prompt is visible.
 */
@Injectable()
export class PromptVisibility {
  constructor(
    @Optional() private readonly policy?: VisibilityPolicy,
    @Optional() private readonly scopes?: ScopeGrants,
  ) {}

  /** `granted`: an OAuth caller's scopes, which must cover a prompt some `auth.oauth.scopes` entry names. */
  isVisible(prompt: RegisteredPrompt, clientId: string, granted?: ReadonlySet<string>): boolean {
    if (this.scopes && !this.scopes.allows('prompt', prompt.name, granted)) return false;
    return this.policy?.isPromptVisible(prompt.name, clientId, prompt.options.reads) ?? true;
  }
}
