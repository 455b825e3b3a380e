import picomatch from 'picomatch';
import { GLOB_MAX_CHARS, GLOB_MAX_WILDCARDS, globProblem, GlobPattern } from './glob-pattern';

/** The dialect the rules were written for (picomatch's bash mode), as the oracle of the table below. */
const picomatchMatches = (pattern: string, text: string) =>
  picomatch(pattern, { bash: true, dot: true })(text);

// Rules as operators write them: tool names, prompts, skill and upstream URIs, with * ** and ?.
const PATTERNS = [
  '*',
  '**',
  'orders_*',
  '*_place',
  'orders_?et',
  'prompt:secret_*',
  'skill://*',
  'skill://**',
  'skill://trading/*',
  'skill://trading/**',
  'skill://trading/entry-monitor',
  'skill://trading/entry-monitor/**',
  'skill://trading/entry-monitor/refs/*',
  'skill://*/*/*private*',
  'skill://*/entry-*/**/*.md',
  'skill://trading/**/SKILL.md',
  'skill://trading/*/**',
  'skill://**/refs/*',
  '**/SKILL.md',
  'skill://tr?ding/*',
  'mcp+upstream://relay/*',
  'mcp+upstream://relay/**/*',
  'test://static-*',
];

const TEXTS = [
  'orders_place',
  'orders_get',
  'orders_',
  'inventory_search',
  'prompt:secret_plan',
  'prompt:plan',
  'skill://trading',
  'skill://trading/entry-monitor',
  'skill://trading/entry-monitor/SKILL.md',
  'skill://trading/entry-monitor/refs/a.md',
  'skill://trading/entry-monitor/refs/deep/b.md',
  'skill://trading/my-private-notes/SKILL.md',
  'skill://trading/x/private.md',
  'skill://trading/x/a/private',
  'skill://trading-old/x',
  'skill://trading/SKILL.md',
  'skill://a/b/c/d/e',
  'mcp+upstream://relay/docs/readme',
  'mcp+upstream://relay',
  'test://static-1',
  'SKILL.md',
  `skill://${'a/'.repeat(40)}x`,
];

describe('GlobPattern', () => {
  it('matches exactly as picomatch did for the rules and names the gateway meets', () => {
    const table = PATTERNS.flatMap((pattern) =>
      TEXTS.map((text) => [pattern, text, GlobPattern.compile(pattern).matches(text)] as const),
    );
    const expected = table.map(([pattern, text]) => [
      pattern,
      text,
      picomatchMatches(pattern, text),
    ]);
    expect(table).toEqual(expected);
    // The table is not trivially one-sided.
    expect(table.filter(([, , match]) => match).length).toBeGreaterThan(50);
    expect(table.filter(([, , match]) => !match).length).toBeGreaterThan(50);
  });

  it('matches every prefix ending at a given position in one pass, as one match per prefix would', () => {
    const text = 'skill://trading/entry-monitor/refs/deep/b.md';
    const ends = [29, 34, 39, text.length];
    for (const pattern of PATTERNS) {
      const glob = GlobPattern.compile(pattern);
      const one = ends.some((end) => glob.matches(text.slice(0, end)));
      expect([pattern, glob.matchesPrefix(text, ends)]).toEqual([pattern, one]);
    }
  });

  it('finishes a glob and text that take a backtracking matcher exponential time, in bounded steps', () => {
    // Fifteen runs that can each take any part of the text, and a last letter that is never there.
    const pattern = `skill://${'*a'.repeat(15)}b`;
    const text = `skill://${'a'.repeat(4096)}`;
    const glob = GlobPattern.compile(pattern);
    expect(glob.matches(text)).toBe(false);
    expect(glob.visits).toBeLessThanOrEqual((glob.size + 1) * (text.length + 1));

    const deep = `skill://${'a/'.repeat(2000)}x`;
    const denyPrivate = GlobPattern.compile('skill://*/*/*private*');
    expect(denyPrivate.matches(deep)).toBe(false);
    expect(denyPrivate.visits).toBeLessThanOrEqual((denyPrivate.size + 1) * (deep.length + 1));
  });

  it('never matches the empty text', () => {
    expect(GlobPattern.compile('*').matches('')).toBe(false);
    expect(GlobPattern.compile('**').matches('')).toBe(false);
  });
});

describe('globProblem', () => {
  it('accepts the rules operators write', () => {
    for (const pattern of PATTERNS)
      expect([pattern, globProblem(pattern)]).toEqual([pattern, undefined]);
    expect(globProblem(`skill://${'*/'.repeat(GLOB_MAX_WILDCARDS - 1)}*`)).toBeUndefined();
  });

  it('refuses a glob over the length or wildcard caps, naming them', () => {
    expect(globProblem('a'.repeat(GLOB_MAX_CHARS + 1))).toBe(
      `is ${GLOB_MAX_CHARS + 1} characters, more than the ${GLOB_MAX_CHARS} a glob may hold`,
    );
    expect(globProblem(`skill://${'*a'.repeat(GLOB_MAX_WILDCARDS + 1)}`)).toBe(
      `has ${GLOB_MAX_WILDCARDS + 1} wildcards, more than the ${GLOB_MAX_WILDCARDS} a glob may hold`,
    );
    // A run of stars is one wildcard.
    expect(globProblem(`${'***a'.repeat(GLOB_MAX_WILDCARDS)}`)).toBeUndefined();
  });

  it('refuses syntax of other glob dialects rather than reading it as literal text', () => {
    for (const pattern of [
      '[ab]*',
      'skill://{a,b}/*',
      '+(a|b)',
      '!orders_*',
      'a\\*',
      '@(x)',
      './x',
    ]) {
      expect([pattern, globProblem(pattern)]).toEqual([pattern, expect.any(String)]);
    }
    expect(globProblem('skill://{a,b}/*')).toContain('"{" is not glob syntax here');
  });
});
