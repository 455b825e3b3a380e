import { ResourceEntry } from './resource-provider';
import { SkillRecord } from './skill-record';

export const SKILL_MIME_TYPE = 'text/markdown';
export const META_ETAG = 'owlclaw/etag';
export const META_TAGS = 'owlclaw/tags';
export const META_CATEGORY = 'owlclaw/category';

/** The `resources/list` entry of a skill (its seed URI reads SKILL.md). */
export function toResourceEntry(skill: SkillRecord): ResourceEntry {
  const entry: ResourceEntry = {
    uri: skill.uri,
    name: skill.name,
    mimeType: SKILL_MIME_TYPE,
    size: skill.skillFile.size,
    annotations: { lastModified: new Date(skill.skillFile.mtimeMs).toISOString() },
    _meta: { [META_ETAG]: skill.etag, [META_TAGS]: skill.tags, [META_CATEGORY]: skill.category },
  };
  if (skill.title !== undefined) entry.title = skill.title;
  if (skill.description !== undefined) entry.description = skill.description;
  return entry;
}
