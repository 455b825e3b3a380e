import { formatSkillUri, parseSkillUri, SKILL_FILE } from '../../resources/skill-uri';

/** What visibility rules judge for one `skill://` URI. */
export interface SkillVisibilityTargets {
  /** The skill's own URI (`skill://<category>/<name>`): allow and deny apply to it. */
  skill: string;
  /**
   * The file the URI names and every folder above it inside the skill, in
   * canonical spelling: a deny rule on any of them hides the file. The seed
   * URI names its SKILL.md.
   */
  inside: string[];
}

/** Undefined for anything that is not a well-formed skill:// URI (judged as written). */
export function skillVisibilityTargets(uri: string): SkillVisibilityTargets | undefined {
  let parsed;
  try {
    parsed = parseSkillUri(uri);
  } catch {
    return undefined;
  }
  const { category, name } = parsed;
  const path = parsed.path.length === 0 ? [SKILL_FILE] : parsed.path;
  const inside = path.map((_, i) => formatSkillUri({ category, name, path: path.slice(0, i + 1) }));
  return { skill: formatSkillUri({ category, name, path: [] }), inside };
}
