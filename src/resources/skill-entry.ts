import { skillFileUri } from './skill-uri';
import { SkillFile, SkillRecord } from './skill-record';

/**
 * A Skills extension entry: SKILL.md URI, verbatim front matter, and the
 * manifest of `files` (every file the client may see; all of them by default).
 */
export function toSkillEntry(skill: SkillRecord, files: readonly SkillFile[] = skill.files) {
  return {
    uri: skill.skillFileUri,
    frontmatter: skill.frontmatter,
    resources: files.map((file) => ({
      uri: skillFileUri(skill, file),
      digest: file.digest,
      size: file.size,
    })),
  };
}
