import { GlobPattern } from '../../common/glob-pattern';

/*
 * Rules are globs over tool names and resource URIs alike: `*` matches any
 * run of characters, `/` included, so the default allow `['*']` covers
 * `skill://trading/entry-monitor` as well as `orders_place`, and
 * `skill://trading/*` covers every skill (and file) of that category.
 */

// Compiled once per distinct pattern; patterns come from config, so the set stays small.
const compiled = new Map<string, GlobPattern>();

function globOf(pattern: string): GlobPattern {
  let glob = compiled.get(pattern);
  if (!glob) {
    glob = GlobPattern.compile(pattern);
    compiled.set(pattern, glob);
  }
  return glob;
}

export function globMatches(pattern: string, value: string): boolean {
  return globOf(pattern).matches(value);
}

export function anyGlobMatches(patterns: readonly string[], value: string): boolean {
  return patterns.some((pattern) => globMatches(pattern, value));
}

/** Whether any pattern matches `value.slice(0, end)` for any of `ends` (ascending), in one pass each. */
export function anyGlobMatchesPrefix(
  patterns: readonly string[],
  value: string,
  ends: readonly number[],
): boolean {
  return patterns.some((pattern) => globOf(pattern).matchesPrefix(value, ends));
}
