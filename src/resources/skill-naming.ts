import { SkillRecord } from './skill-record';

/** Agent Skills naming rule: 1-64 chars, lowercase letters, digits, single hyphens, no edge hyphens. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The Skills extension's per-skill limits. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/**
 * Why a skill cannot be published through `skills/list`, or undefined when it
 * can. Such a skill is never renamed to fit; it is left out and logged.
 */
export function skillsListIneligibility(
  skill: Omit<SkillRecord, 'excludedFromSkillsList'>,
): string | undefined {
  if (skill.frontmatterError) return `front matter is not valid YAML: ${skill.frontmatterError}`;
  const declared = skill.frontmatter.name;
  if (typeof declared !== 'string') return 'front matter has no name';
  if (
    typeof skill.frontmatter.description !== 'string' ||
    skill.frontmatter.description.trim() === ''
  ) {
    return 'front matter has no description';
  }
  if (declared !== skill.name)
    return `front matter name "${declared}" differs from directory name "${skill.name}"`;
  if (!SKILL_NAME.test(skill.name)) {
    return `name "${skill.name}" breaks the Agent Skills naming rules (1-64 lowercase letters, digits, single hyphens)`;
  }
  if (skill.files.length > MAX_SKILL_FILES)
    return `${skill.files.length} files exceed the limit of ${MAX_SKILL_FILES}`;
  if (skill.totalBytes > MAX_SKILL_BYTES)
    return `${skill.totalBytes} bytes exceed the limit of ${MAX_SKILL_BYTES}`;
  return undefined;
}
