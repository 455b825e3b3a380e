import { createHash } from 'node:crypto';
import { TOOL_NAMING_LIMITS } from './tool-naming.limits';

const { maxExposedNameLength, shortHashLength } = TOOL_NAMING_LIMITS;

/**
 * Fits a name into `maxExposedNameLength` characters: names that fit are kept,
 * longer ones become a prefix, `-` and a short SHA-256 of the whole name, so
 * the same name always gives the same result and names sharing a long prefix
 * still differ.
 */
export function shortenToolName(name: string): { name: string; shortened: boolean } {
  if (name.length <= maxExposedNameLength) return { name, shortened: false };
  const hash = createHash('sha256').update(name).digest('hex').slice(0, shortHashLength);
  const prefix = name.slice(0, maxExposedNameLength - shortHashLength - 1);
  return { name: `${prefix}-${hash}`, shortened: true };
}
