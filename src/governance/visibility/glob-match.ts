import picomatch from 'picomatch';

/*
 * Rules are globs over tool names and resource URIs alike. In bash mode `*`
 * matches any run of characters, `/` included, so the default allow `['*']`
 * covers `skill://trading/entry-monitor` as well as `orders_place`, and
 * `skill://trading/*` covers every skill (and file) of that category.
 */
const OPTIONS: picomatch.PicomatchOptions = { bash: true, dot: true };

// Compiled once per distinct pattern; patterns come from config, so the set stays small.
const compiled = new Map<string, picomatch.Matcher>();

export function globMatches(pattern: string, value: string): boolean {
  let matcher = compiled.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, OPTIONS);
    compiled.set(pattern, matcher);
  }
  return matcher(value);
}

export function anyGlobMatches(patterns: readonly string[], value: string): boolean {
  return patterns.some((pattern) => globMatches(pattern, value));
}
