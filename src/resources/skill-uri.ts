import { GatewayError } from '../errors/gateway.error';

export const SKILL_SCHEME = 'skill://';
export const SKILL_FILE = 'SKILL.md';

/** A parsed `skill://` URI: a category, a skill name, and optionally a path inside the skill. */
export interface SkillUri {
  category: string;
  name: string;
  /** Segments below the skill directory; empty for the seed URI `skill://<category>/<name>`. */
  path: string[];
}

export interface CategoryWildcard {
  category: string;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
const FORBIDDEN_IN_SEGMENT = /[\\/\u0000-\u001f\u007f]/;

/**
 * Whether a file or directory name on disk can be a segment of a skill:// URI
 * (the rule below, for an already decoded segment). A name that cannot is
 * never served: a listing must not promise what a read would refuse.
 */
export function isServableName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    name !== '.' &&
    name !== '..' &&
    !FORBIDDEN_IN_SEGMENT.test(name)
  );
}

/**
 * Segment rule: non-empty, not `.` or `..`, and free of separators, NUL and
 * control characters, checked after percent-decoding so that `%2e%2e` or
 * `%2f` cannot smuggle a traversal past it.
 */
function checkSegment(raw: string, position: string): string {
  if (raw.length === 0) throw invalid(`empty ${position} segment`);
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    throw invalid(`malformed percent-encoding in ${position} segment "${raw}"`);
  }
  if (segment === '.' || segment === '..')
    throw invalid(`"${segment}" is not allowed as ${position} segment`);
  if (FORBIDDEN_IN_SEGMENT.test(segment)) {
    throw invalid(`${position} segment "${raw}" contains a path separator or a control character`);
  }
  if (segment.length > 255) throw invalid(`${position} segment is longer than 255 characters`);
  return segment;
}

function invalid(problem: string): GatewayError {
  return GatewayError.invalidParams(`Invalid skill URI: ${problem}`, {
    expected: 'skill://<category>/<name>[/<file>]',
  });
}

function segmentsOf(uri: unknown): string[] {
  if (typeof uri !== 'string' || uri.length === 0) throw invalid('uri must be a non-empty string');
  if (!uri.startsWith(SKILL_SCHEME)) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1];
    throw invalid(
      scheme
        ? `unsupported scheme "${scheme}" (only skill:// is served)`
        : 'missing the skill:// scheme',
    );
  }
  const rest = uri.slice(SKILL_SCHEME.length);
  if (/[?#]/.test(rest)) throw invalid('query strings and fragments are not allowed');
  return rest.split('/');
}

/** Parses `skill://<category>/<name>[/<path...>]`; every failure is a -32602 naming the problem. */
export function parseSkillUri(uri: unknown): SkillUri {
  const segments = segmentsOf(uri);
  if (segments.length < 2)
    throw invalid(`expected at least 2 segments after skill://, got ${segments.length}`);
  const [category, name, ...path] = segments.map((segment, index) =>
    checkSegment(segment, index === 0 ? 'category' : index === 1 ? 'name' : 'path'),
  );
  return { category, name, path };
}

/** `skill://<category>/*`, or undefined when the URI is not a wildcard. */
export function parseCategoryWildcard(uri: unknown): CategoryWildcard | undefined {
  if (typeof uri !== 'string' || !uri.endsWith('/*')) return undefined;
  const segments = segmentsOf(uri);
  if (segments.length !== 2 || segments[1] !== '*')
    throw invalid('a wildcard must be skill://<category>/*');
  return { category: checkSegment(segments[0], 'category') };
}

const encode = (segment: string) => encodeURIComponent(segment);

/** The inverse of parseSkillUri (seed Property 3: path -> URI -> path is the identity). */
export function formatSkillUri(uri: SkillUri): string {
  return `${SKILL_SCHEME}${[uri.category, uri.name, ...uri.path].map(encode).join('/')}`;
}

/** A file of a skill by its path inside the skill, in canonical spelling (as lists show it, as deny rules name it). */
export function skillFileUri(skill: { category: string; name: string }, file: { relPath: string }) {
  return formatSkillUri({
    category: skill.category,
    name: skill.name,
    path: file.relPath.split('/'),
  });
}

/**
 * The canonical spelling of a skill:// URI (as lists spell it), so that two
 * spellings of one resource (`café` and `caf%C3%A9`, `%c3` and `%C3`) compare
 * equal. A URI that does not parse is returned unchanged.
 */
export function canonicalSkillUri(uri: string): string {
  try {
    return formatSkillUri(parseSkillUri(uri));
  } catch {
    return uri;
  }
}
