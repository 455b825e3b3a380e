import { formatSkillUri, parseSkillUri, SKILL_FILE } from '../../resources/skill-uri';

/** What visibility rules judge for one `skill://` URI. */
export interface SkillVisibilityTargets {
  /** The skill's own URI (`skill://<category>/<name>`): allow and deny apply to it. */
  skill: string;
  /** The file the URI names, in canonical spelling; the seed URI names its SKILL.md. */
  file: string;
  /**
   * Lengths of the prefixes of `file` that name it and every folder above it
   * inside the skill, ascending: a deny rule on any of them hides the file.
   * The folders are prefixes of one string, so no URI is built per folder.
   */
  ends: number[];
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
  const skill = formatSkillUri({ category, name, path: [] });
  const file = formatSkillUri({
    category,
    name,
    path: parsed.path.length === 0 ? [SKILL_FILE] : parsed.path,
  });
  const ends: number[] = [];
  // Encoded segments hold no `/`, so every `/` past the skill ends a folder.
  for (let at = file.indexOf('/', skill.length + 1); at !== -1; at = file.indexOf('/', at + 1)) {
    ends.push(at);
  }
  ends.push(file.length);
  return { skill, file, ends };
}
