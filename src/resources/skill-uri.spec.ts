import fc from 'fast-check';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import {
  canonicalSkillUri,
  formatSkillUri,
  isServableName,
  parseCategoryWildcard,
  parseSkillUri,
  SkillUri,
} from './skill-uri';

/** What a segment may never be: empty, `.`/`..`, a separator, a control character, > 255 chars. */
// eslint-disable-next-line no-control-regex -- control characters are what the rule excludes
const FORBIDDEN_CHARS = /[\\/\u0000-\u001f\u007f]/;
const isValidSegment = (s: string) =>
  s.length > 0 && s.length <= 255 && s !== '.' && s !== '..' && !FORBIDDEN_CHARS.test(s);

/** Segments the property must also cover, chosen by hand (spaces, '%', dots, unicode, URI syntax). */
const AWKWARD_SEGMENTS = [
  'with space',
  ' leading and trailing ',
  '%',
  '100%',
  '%41',
  '%2e%2e',
  '%2F',
  'a.b',
  '...',
  '.hidden',
  'trailing.',
  'v1.2.3',
  '日本語',
  'Ünïcödé',
  '🦉 owl',
  '👩‍👩‍👧',
  'a+b=c&d',
  '?',
  '#',
  ':@',
  '*',
  "it's (fine)!",
  '~tilde',
];

const segment = fc
  .oneof(
    fc.constantFrom(...AWKWARD_SEGMENTS),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
    fc
      .array(fc.constantFrom('a', 'Z', '.', ' ', '%', '-', '_', '9', 'é', '中', '😀'), {
        minLength: 1,
        maxLength: 10,
      })
      .map((chars) => chars.join('')),
  )
  .filter(isValidSegment);

const skillUri: fc.Arbitrary<SkillUri> = fc.record({
  category: segment,
  name: segment,
  path: fc.array(segment, { maxLength: 4 }),
});

/** Runs `fn`, expecting a -32602 GatewayError; returns it. */
function rejection(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    const error = err as GatewayError;
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.category).toBe('protocol');
    return error;
  }
  throw new Error('expected a -32602 GatewayError, but nothing was thrown');
}

describe('skill-uri: seed Property 3 (path -> URI -> path is the identity)', () => {
  test('formatSkillUri then parseSkillUri returns the same category, name and path', () => {
    fc.assert(
      fc.property(skillUri, (uri) => {
        const formatted = formatSkillUri(uri);
        expect(formatted.startsWith('skill://')).toBe(true);
        // Every segment is encoded, so the URI has exactly one '/' per boundary and no query/fragment.
        expect(formatted.slice('skill://'.length).split('/')).toHaveLength(2 + uri.path.length);
        expect(formatted).not.toMatch(/[?#\\\s]/);
        expect(parseSkillUri(formatted)).toEqual(uri);
      }),
      { numRuns: 500 },
    );
  });

  test('a formatted URI is canonical: formatting the parse of it gives it back', () => {
    fc.assert(
      fc.property(skillUri, (uri) => {
        const formatted = formatSkillUri(uri);
        expect(formatSkillUri(parseSkillUri(formatted))).toBe(formatted);
      }),
      { numRuns: 200 },
    );
  });

  test('the hand-picked awkward segments are really exercised in every position', () => {
    for (const s of AWKWARD_SEGMENTS) {
      const uri = { category: s, name: s, path: [s, 'SKILL.md'] };
      expect(parseSkillUri(formatSkillUri(uri))).toEqual(uri);
    }
  });

  test('the seed URI (no path) parses to an empty path, a file URI to its segments', () => {
    expect(parseSkillUri('skill://orders/refund-policy')).toEqual({
      category: 'orders',
      name: 'refund-policy',
      path: [],
    });
    expect(parseSkillUri('skill://orders/refund-policy/references/guide.md')).toEqual({
      category: 'orders',
      name: 'refund-policy',
      path: ['references', 'guide.md'],
    });
    expect(formatSkillUri({ category: 'a b', name: '100%', path: ['x.md'] })).toBe(
      'skill://a%20b/100%25/x.md',
    );
  });
});

describe('skill-uri: invalid URIs are -32602 naming the problem', () => {
  const INVALID: Array<[label: string, uri: unknown, problem: RegExp]> = [
    ['another scheme', 'http://orders/refund', /unsupported scheme "http"/],
    ['file scheme', 'file:///etc/passwd', /unsupported scheme "file"/],
    ['upper-case scheme', 'SKILL://orders/refund', /unsupported scheme "SKILL"/],
    ['no scheme', 'orders/refund', /missing the skill:\/\/ scheme/],
    ['empty string', '', /non-empty string/],
    ['not a string', 42, /non-empty string/],
    ['null', null, /non-empty string/],
    ['one segment', 'skill://orders', /expected at least 2 segments after skill:\/\/, got 1/],
    ['nothing after the scheme', 'skill://', /expected at least 2 segments/],
    ['empty category (absolute path)', 'skill:///etc/passwd', /empty category segment/],
    ['empty name', 'skill://orders//SKILL.md', /empty name segment/],
    ['empty path segment', 'skill://orders/refund//SKILL.md', /empty path segment/],
    ['trailing slash', 'skill://orders/refund/', /empty path segment/],
    ['.. as category', 'skill://../refund', /"\.\." is not allowed as category segment/],
    ['.. as name', 'skill://orders/../x', /"\.\." is not allowed as name segment/],
    ['.. in the path', 'skill://orders/refund/../../etc/passwd', /"\.\." is not allowed as path/],
    ['. as name', 'skill://orders/./x', /"\." is not allowed as name segment/],
    ['. in the path', 'skill://orders/refund/./SKILL.md', /"\." is not allowed as path segment/],
    ['%2e%2e', 'skill://orders/%2e%2e/x', /"\.\." is not allowed as name segment/],
    ['%2E%2E in the path', 'skill://orders/refund/%2E%2E/x', /"\.\." is not allowed as path/],
    ['%2e as name', 'skill://orders/%2e/x', /"\." is not allowed as name segment/],
    [
      '%2E%2E%2F (encoded ../)',
      'skill://orders/refund/%2E%2E%2F%2E%2E%2Fetc',
      /path segment "%2E%2E%2F%2E%2E%2Fetc" contains a path separator/,
    ],
    ['%2f', 'skill://orders/a%2fb', /name segment "a%2fb" contains a path separator/],
    ['%2F in the category', 'skill://%2Fetc/passwd', /category segment "%2Fetc" contains a path/],
    ['raw backslash', 'skill://orders/a\\b', /contains a path separator/],
    ['..\\ traversal', 'skill://orders/refund/..\\..\\secret', /contains a path separator/],
    ['%5C (encoded backslash)', 'skill://orders/a%5Cb', /contains a path separator/],
    ['%00', 'skill://orders/refund/SKILL.md%00.png', /control character/],
    ['raw NUL', 'skill://orders/refund/SKILL.md\u0000.png', /control character/],
    ['encoded newline', 'skill://orders/a%0Ab', /control character/],
    ['DEL', 'skill://orders/a\u007fb', /control character/],
    ['query string', 'skill://orders/refund?version=2', /query strings and fragments/],
    ['fragment', 'skill://orders/refund#section', /query strings and fragments/],
    ['malformed %', 'skill://orders/re%zzfund', /malformed percent-encoding in name segment/],
    ['truncated %', 'skill://orders/refund/x%E2%82', /malformed percent-encoding in path/],
    ['overlong segment', `skill://orders/${'x'.repeat(256)}`, /longer than 255 characters/],
  ];

  test.each(INVALID)('%s', (_label, uri, problem) => {
    const error = rejection(() => parseSkillUri(uri));
    expect(error.message).toMatch(/^Invalid skill URI: /);
    expect(error.message).toMatch(problem);
    expect(error.data).toEqual({ expected: 'skill://<category>/<name>[/<file>]' });
  });
});

describe('skill-uri: category wildcards', () => {
  test('skill://<category>/* names the category (percent-decoded)', () => {
    expect(parseCategoryWildcard('skill://orders/*')).toEqual({ category: 'orders' });
    expect(parseCategoryWildcard('skill://caf%C3%A9%20bar/*')).toEqual({ category: 'café bar' });
  });

  test('any valid category survives formatting into a wildcard and back', () => {
    fc.assert(
      fc.property(segment, (category) => {
        expect(parseCategoryWildcard(`skill://${encodeURIComponent(category)}/*`)).toEqual({
          category,
        });
      }),
      { numRuns: 200 },
    );
  });

  test('a URI that is not a wildcard is undefined, not an error', () => {
    expect(parseCategoryWildcard('skill://orders/refund')).toBeUndefined();
    expect(parseCategoryWildcard('skill://orders/refund/SKILL.md')).toBeUndefined();
    expect(parseCategoryWildcard(42)).toBeUndefined();
    expect(parseCategoryWildcard(undefined)).toBeUndefined();
  });

  test.each<[string, RegExp]>([
    ['skill://orders/refund/*', /a wildcard must be skill:\/\/<category>\/\*/],
    ['skill://*', /a wildcard must be skill:\/\/<category>\/\*/],
    ['skill:///*', /empty category segment/],
    ['skill://../*', /"\.\." is not allowed as category segment/],
    ['skill://%2e%2e/*', /"\.\." is not allowed as category segment/],
    ['skill://a%2Fb/*', /contains a path separator/],
    ['http://orders/*', /unsupported scheme "http"/],
    ['skill://orders/*?x=/*', /query strings and fragments/],
  ])('%p is -32602: %p', (uri, problem) => {
    expect(rejection(() => parseCategoryWildcard(uri)).message).toMatch(problem);
  });
});

describe('skill-uri: names on disk and canonical spellings', () => {
  test('isServableName(name) holds exactly when a URI formatted from it parses back', () => {
    const anyName = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }),
      fc.constantFrom('a\\b', 'tab\there', 'nul\u0000', 'del\u007f', '.', '..', 'x'.repeat(256)),
      segment,
    );
    fc.assert(
      fc.property(anyName, (name) => {
        let parses = true;
        try {
          expect(parseSkillUri(formatSkillUri({ category: 'c', name, path: [name] }))).toEqual({
            category: 'c',
            name,
            path: [name],
          });
        } catch {
          parses = false;
        }
        expect(isServableName(name)).toBe(parses);
      }),
      { numRuns: 300 },
    );
  });

  test('canonicalSkillUri: every spelling of one resource maps to the spelling lists use', () => {
    const canonical = 'skill://docs/caf%C3%A9-notes/r%C3%A9f%20x.md';
    expect(canonicalSkillUri('skill://docs/café-notes/réf x.md')).toBe(canonical);
    expect(canonicalSkillUri('skill://docs/caf%c3%a9-notes/r%c3%a9f%20x.md')).toBe(canonical);
    expect(canonicalSkillUri(canonical)).toBe(canonical);
    expect(canonicalSkillUri('skill://d%6Fcs/x')).toBe('skill://docs/x');
    // Not a skill URI (or not a valid one): returned as it is.
    expect(canonicalSkillUri('file:///etc/passwd')).toBe('file:///etc/passwd');
    expect(canonicalSkillUri('skill://docs/../x')).toBe('skill://docs/../x');
  });

  test('canonicalSkillUri is the identity on formatted URIs', () => {
    fc.assert(
      fc.property(skillUri, (uri) => {
        const formatted = formatSkillUri(uri);
        expect(canonicalSkillUri(formatted)).toBe(formatted);
      }),
      { numRuns: 200 },
    );
  });
});
