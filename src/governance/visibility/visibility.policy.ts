import { Injectable } from '@nestjs/common';
import { GovernanceRules } from '../rules/governance-rules';
import { RulesMemo } from '../rules/rules-memo';
import { anyGlobMatches, anyGlobMatchesPrefix } from './glob-match';
import { skillVisibilityTargets } from './skill-visibility-targets';

/** Prompts are judged as `prompt:<name>`, apart from tools of the same name. */
export const PROMPT_TARGET_PREFIX = 'prompt:';

/**
 * What a client may see: the default `governance.visibility` allow/deny
 * globs, where a client's own `allow` replaces the default allow and its
 * `deny` adds to the default deny. Lists filter with it and calls are checked
 * with it, so a hidden tool, prompt or resource is never listed and never served.
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

  /**
   * A skill (`skill://<category>/<name>`) or a file inside it. A file is seen
   * with its skill, unless a deny rule names it or a folder above it; the
   * seed URI stands for the skill's SKILL.md as well. Other URIs are judged as written.
   */
  isResourceVisible(uri: string, clientId: string): boolean {
    return this.visible.get(clientId, uri, () => {
      const skill = skillVisibilityTargets(uri);
      if (!skill) return this.matchVisible(uri, clientId);
      return (
        this.matchVisible(skill.skill, clientId) && !this.isDenied(skill.file, clientId, skill.ends)
      );
    });
  }

  /**
   * A prompt is seen under `prompt:<name>`, and only by a client that may see
   * every tool and resource whose data it reveals (`reads`).
   */
  isPromptVisible(name: string, clientId: string, reads: readonly string[] = []): boolean {
    return (
      this.isVisible(`${PROMPT_TARGET_PREFIX}${name}`, clientId) &&
      reads.every((target) =>
        target.includes('://')
          ? this.isResourceVisible(target, clientId)
          : this.isVisible(target, clientId),
      )
    );
  }

  private isVisible(target: string, clientId: string): boolean {
    return this.visible.get(clientId, target, () => this.matchVisible(target, clientId));
  }

  private matchVisible(target: string, clientId: string): boolean {
    if (!this.rules.current.enabled) return true;
    const allow = this.rules.clientRules(clientId)?.allow ?? this.rules.current.visibility.allow;
    return anyGlobMatches(allow, target) && !this.isDenied(target, clientId);
  }

  /** Whether a deny rule names the target, or with `ends` any of its prefixes ending there. */
  private isDenied(
    target: string,
    clientId: string,
    ends: readonly number[] = [target.length],
  ): boolean {
    const rules = this.rules.current;
    if (!rules.enabled) return false;
    const client = this.rules.clientRules(clientId);
    return (
      anyGlobMatchesPrefix(rules.visibility.deny, target, ends) ||
      anyGlobMatchesPrefix(client?.deny ?? [], target, ends)
    );
  }
}
