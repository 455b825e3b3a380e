import { Injectable, Optional } from '@nestjs/common';
import { ScopeGrants } from '../governance/identity/oauth/scope-grants';
import { VisibilityPolicy } from '../governance/visibility/visibility.policy';
import { SkillFile, SkillRecord } from './skill-record';
import { skillFileUri } from './skill-uri';

/**
 * Whether a client may see (and therefore read) a resource. Lists and reads
 * ask the same question here; the answer is governance's VisibilityPolicy
 * (per-client globs over `skill://` URIs, a deny rule reaching down to single
 * files of a skill). Without governance in the graph everything is visible.
 */
@Injectable()
export class ResourceVisibility {
  constructor(
    @Optional() private readonly policy?: VisibilityPolicy,
    @Optional() private readonly scopes?: ScopeGrants,
  ) {}

  /** `granted`: an OAuth caller's scopes, which must cover a resource some `auth.oauth.scopes` entry names. */
  isVisible(uri: string, clientId: string, granted?: ReadonlySet<string>): boolean {
    if (this.scopes && !this.scopes.allows('resource', uri, granted)) return false;
    return this.policy?.isResourceVisible(uri, clientId) ?? true;
  }

  /** The files of a skill this client may see, in the skill's order. */
  visibleFiles(skill: SkillRecord, clientId: string): SkillFile[] {
    if (!this.policy) return skill.files;
    return skill.files.filter((file) => this.isVisible(skillFileUri(skill, file), clientId));
  }
}
