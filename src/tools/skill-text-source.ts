/** Reads the body of a skill's SKILL.md by `<category>/<name>`; undefined when there is none. */
export interface SkillTextSource {
  skillBody(ref: string): string | undefined;
  /** Version of the catalog, so caches that embed skill text know when to rebuild. */
  readonly version: number;
}
