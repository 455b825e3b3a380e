/** Longest glob a rule may hold (characters). */
export const GLOB_MAX_CHARS = 512;
/** Most wildcards (`*`, `**`, `?`) one glob may hold. */
export const GLOB_MAX_WILDCARDS = 16;

/**
 * Characters other glob dialects give a meaning (classes, braces, groups,
 * negation, escapes): refused rather than read as literals, so that no rule
 * written for such a dialect silently stops matching what it was meant to.
 */
const UNSUPPORTED = /[[\]{}()|!\\"]/;

enum Kind {
  /** One given character. */
  Char,
  /** One character other than `/` (`?`). */
  One,
  /** Any run of characters, `/` included (`*`); it may also match nothing. */
  Run,
  /** Reads nothing: goes on to the next state or to `skip` (the optional parts of `**`). */
  Fork,
}

interface State {
  kind: Kind;
  char: string;
  /** Where a fork may go instead of the next state. */
  skip: number;
}

/**
 * A glob compiled to a small automaton that reads the text once, left to
 * right, keeping the set of states it may be in: at most (pattern length + 1)
 * states per character, so a match costs O(pattern x text) whatever both hold,
 * where a backtracking regular expression can take exponential time.
 *
 * The dialect is picomatch's bash mode as the rules used it: `*` is any run
 * of characters, `/` included; `?` is one character other than `/`; `**` as a
 * whole segment is a run too, where `/**\/` may also be a single `/`, a
 * trailing `/**` may also be nothing (unless a `*` ends right before it) and a
 * leading `**\/` may be nothing. Every other character stands for itself, and
 * no glob matches the empty text.
 */
export class GlobPattern {
  private readonly states: State[] = [];
  /** The step that last put each state in the set (a Float64Array: it never wraps). */
  private readonly seen: Float64Array;
  private step = 0;
  /** States entered by the last match: at most (states + 1) x (text length + 1). */
  visits = 0;

  private constructor(readonly source: string) {
    compile(source, this.states);
    this.seen = new Float64Array(this.states.length + 1);
  }

  /** Any text compiles (rules are checked by globProblem when they are loaded). */
  static compile(pattern: string): GlobPattern {
    return new GlobPattern(pattern);
  }

  /** States of the automaton (the accepting one not counted). */
  get size(): number {
    return this.states.length;
  }

  matches(text: string): boolean {
    return this.matchesPrefix(text, [text.length]);
  }

  /**
   * Whether the glob matches `text.slice(0, end)` for any of `ends` (ascending):
   * one reading of the text judges every prefix, so that a URI and each folder
   * above it cost one pass, not one per folder.
   */
  matchesPrefix(text: string, ends: readonly number[]): boolean {
    const accept = this.states.length;
    // Like the dialect it replaces, no glob matches the empty text.
    this.visits = 0;
    if (text.length === 0) return false;
    let current: number[] = [];
    let next: number[] = [];
    this.step++;
    this.enter(0, current);
    let e = 0;
    for (let i = 0; ; i++) {
      while (e < ends.length && ends[e] < i) e++;
      if (e === ends.length) return false;
      if (ends[e] === i && this.seen[accept] === this.step) return true;
      if (current.length === 0 || i === text.length) return false;
      const char = text[i];
      this.step++;
      next.length = 0;
      for (const index of current) {
        const state = this.states[index];
        if (state.kind === Kind.Run) this.enter(index, next);
        else if (state.kind === Kind.One ? char !== '/' : char === state.char) {
          this.enter(index + 1, next);
        }
      }
      [current, next] = [next, current];
    }
  }

  /**
   * Puts a state in the set with every state reachable from it without
   * reading (a run may match nothing, `**` parts may be skipped); the
   * accepting state is only marked.
   */
  private enter(index: number, into: number[]): void {
    if (this.seen[index] === this.step) return;
    this.seen[index] = this.step;
    this.visits++;
    const state = this.states[index];
    if (state === undefined) return;
    if (state.kind !== Kind.Fork) into.push(index);
    if (state.kind === Kind.Run || state.kind === Kind.Fork) this.enter(index + 1, into);
    if (state.kind === Kind.Fork) this.enter(state.skip, into);
  }
}

/** Why a rule's glob is refused (too long, too many wildcards, another dialect's syntax), or undefined. */
export function globProblem(pattern: string): string | undefined {
  if (pattern.length > GLOB_MAX_CHARS) {
    return `is ${pattern.length} characters, more than the ${GLOB_MAX_CHARS} a glob may hold`;
  }
  const wildcards = pattern.match(/\*+|\?/g)?.length ?? 0;
  if (wildcards > GLOB_MAX_WILDCARDS) {
    return `has ${wildcards} wildcards, more than the ${GLOB_MAX_WILDCARDS} a glob may hold`;
  }
  if (pattern.startsWith('./')) return 'starts with ./, which no tool name or URI does';
  const unsupported = UNSUPPORTED.exec(pattern)?.[0];
  if (unsupported !== undefined) {
    return `"${unsupported}" is not glob syntax here (only *, ** and ? are wildcards; write ? for one such character)`;
  }
  return undefined;
}

function compile(pattern: string, states: State[]): void {
  const push = (kind: Kind, char = ''): State => {
    const state = { kind, char, skip: -1 };
    states.push(state);
    return state;
  };
  // `**/**` is one `**`.
  let glob = pattern;
  for (let was = ''; was !== glob;) {
    was = glob;
    glob = glob.replace(/(^|\/)\*\*\/\*\*(?=\/|$)/g, '$1**');
  }
  const n = glob.length;
  let i = 0;
  while (i < n) {
    const char = glob[i];
    const globstar = char === '/' ? globstarEnd(glob, i + 1) : i === 0 ? globstarEnd(glob, 0) : -1;
    if (char === '/' && globstar === n) {
      // `a/**`: anything below `a`, and `a` itself unless a run ends right before (`a*/**`).
      const fork = i > 0 && glob[i - 1] === '*' ? undefined : push(Kind.Fork);
      push(Kind.Char, '/');
      push(Kind.Run);
      if (fork) fork.skip = states.length;
      i = n;
    } else if (char === '/' && globstar > 0) {
      // `a/**/b`: `/` or `/.../`; with nothing but runs after it, the end of the text too.
      const atEnd = push(Kind.Fork);
      atEnd.skip = /^\*+$/.test(glob.slice(globstar + 1)) ? Number.MAX_SAFE_INTEGER : states.length;
      push(Kind.Char, '/');
      const fork = push(Kind.Fork);
      push(Kind.Run);
      push(Kind.Char, '/');
      fork.skip = states.length;
      i = globstar + 1;
    } else if (globstar === n) {
      push(Kind.Run);
      i = n;
    } else if (globstar > 0) {
      // `**/b`: no folder, or any folders.
      const fork = push(Kind.Fork);
      push(Kind.Run);
      push(Kind.Char, '/');
      fork.skip = states.length;
      i = globstar + 1;
    } else if (char === '*') {
      push(Kind.Run);
      while (glob[i] === '*') i++;
    } else {
      push(char === '?' ? Kind.One : Kind.Char, char);
      i++;
    }
  }
  for (const state of states)
    if (state.skip === Number.MAX_SAFE_INTEGER) state.skip = states.length;
}

/** Where a `**` starting at `at` ends, when it is a whole segment; else -1. */
function globstarEnd(pattern: string, at: number): number {
  if (pattern[at] !== '*' || pattern[at + 1] !== '*') return -1;
  if (at > 0 && pattern[at - 1] !== '/') return -1;
  const end = at + 2;
  return end === pattern.length || pattern[end] === '/' ? end : -1;
}
