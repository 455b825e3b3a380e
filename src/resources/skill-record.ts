/** One file of a skill, as served and as listed in the Skills extension manifest. */
export interface SkillFile {
  /** Path inside the skill directory with `/` separators, e.g. `references/guide.md`. */
  relPath: string;
  absPath: string;
  size: number;
  /** `sha256:<64 lowercase hex>` of the raw bytes. */
  digest: string;
  mtimeMs: number;
  mimeType: string;
}

/** Why a skill is left out of `skills/list` (it stays readable as plain resources). */
export type SkillIneligibility = string | undefined;

/** A skill directory `<category>/<name>/` holding a SKILL.md, with everything the catalog knows. */
export interface SkillRecord {
  category: string;
  /** The directory name (the URI's name segment). */
  name: string;
  dir: string;
  /** `skill://<category>/<name>`: the seed URI, the skill's directory resource. */
  uri: string;
  /** `skill://<category>/<name>/SKILL.md`: the Skills extension's URI of the same file. */
  skillFileUri: string;
  /** The YAML front matter exactly as written, as JSON. Empty when it could not be parsed. */
  frontmatter: Record<string, unknown>;
  frontmatterError?: string;
  title?: string;
  description?: string;
  tags: string[];
  /** The markdown after the front matter. */
  body: string;
  skillFile: SkillFile;
  /** Every file of the skill, SKILL.md included, sorted by path. */
  files: SkillFile[];
  totalBytes: number;
  /** Strong ETag of SKILL.md (quoted, derived from its digest). */
  etag: string;
  excludedFromSkillsList: SkillIneligibility;
}
