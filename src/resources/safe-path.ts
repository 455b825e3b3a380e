import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

/**
 * Resolves segments under `root` and proves the real path (symlinks followed)
 * stays inside it. Undefined when the target does not exist or escapes: both
 * answer "not found", so a probe learns nothing about the disk outside.
 */
export function resolveInside(root: string, segments: readonly string[]): string | undefined {
  const candidate = join(root, ...segments);
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return undefined;
  }
  return isInside(root, real) ? real : undefined;
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
