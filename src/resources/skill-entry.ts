import { SkillRecord } from './skill-record';
import { formatSkillUri } from './skill-uri';

/** A Skills extension entry: SKILL.md URI, verbatim front matter, and the complete file manifest. */
export function toSkillEntry(skill: SkillRecord) {
  return {
    uri: skill.skillFileUri,
    frontmatter: skill.frontmatter,
    resources: skill.files.map((file) => ({
      uri: formatSkillUri({
        category: skill.category,
        name: skill.name,
        path: file.relPath.split('/'),
      }),
      digest: file.digest,
      size: file.size,
    })),
  };
}
