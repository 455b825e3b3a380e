import { statSync } from 'node:fs';
import { SkillRecord } from './skill-record';

/**
 * True when every file of the skill still has the size and mtime it was
 * hashed with. A manifest is re-scanned before it is served otherwise, so a
 * digest older than the file is never handed out.
 */
export function isFresh(skill: SkillRecord): boolean {
  return skill.files.every((file) => {
    try {
      const stat = statSync(file.absPath);
      return stat.size === file.size && stat.mtimeMs === file.mtimeMs;
    } catch {
      return false;
    }
  });
}
