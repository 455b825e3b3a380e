import { Injectable, Optional } from '@nestjs/common';
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
  constructor(@Optional() private readonly policy?: VisibilityPolicy) {}

  isVisible(uri: string, clientId: string): boolean {
    return this.policy?.isResourceVisible(uri, clientId) ?? true;
  }

  /** The files of a skill this client may see, in the skill's order. */
  visibleFiles(skill: SkillRecord, clientId: string): SkillFile[] {
    if (!this.policy) return skill.files;
    return skill.files.filter((file) => this.isVisible(skillFileUri(skill, file), clientId));
  }
}
