/**
 * The environment a Dockerfile's final stage (the image that is deployed)
 * sets with ENV, read from the Dockerfile's text. Follows Docker's syntax for
 * what a bench needs: the escape directive, continuation lines, comment lines
 * inside them, both ENV forms (`ENV A=1 B="x y"` and the legacy `ENV A x y`),
 * quotes and escapes, and ENV inherited through `FROM <earlier stage>`.
 * Variables in values (`$A`) are kept as written, not expanded.
 */
export function finalStageEnv(dockerfile: string): Map<string, string> {
  const escape = escapeCharacter(dockerfile);
  const stages = new Map<string, Map<string, string>>();
  let env: Map<string, string> | undefined;
  for (const line of logicalLines(dockerfile, escape)) {
    const [, instruction = '', rest = ''] = /^(\S+)\s*(.*)$/s.exec(line) ?? [];
    const keyword = instruction.toUpperCase();
    if (keyword === 'FROM') env = startStage(rest, stages);
    else if (keyword === 'ENV') {
      if (env === undefined) throw new Error(`Dockerfile: ENV before any FROM: ${line}`);
      for (const [key, value] of envAssignments(rest, escape)) env.set(key, value);
    }
  }
  if (env === undefined) throw new Error('Dockerfile: no FROM instruction');
  return env;
}

/** A new stage: empty, or a copy of an earlier stage's ENV when it builds on that stage. */
function startStage(args: string, stages: Map<string, Map<string, string>>): Map<string, string> {
  const words = args.split(/\s+/).filter((word) => !word.startsWith('--'));
  const base = stages.get(words[0]?.toLowerCase() ?? '');
  const env = new Map(base ?? []);
  if (words[1]?.toUpperCase() === 'AS' && words[2] !== undefined) {
    stages.set(words[2].toLowerCase(), env);
  }
  return env;
}

/** The `# escape=` parser directive (only at the very top), else backslash. */
function escapeCharacter(dockerfile: string): string {
  for (const line of dockerfile.split(/\r?\n/)) {
    const directive = /^#\s*(\w+)\s*=\s*(\S+)\s*$/.exec(line);
    if (!directive) break;
    if (directive[1].toLowerCase() === 'escape') return directive[2];
  }
  return '\\';
}

/** Instructions with their continuation lines joined; comment and blank lines dropped. */
function logicalLines(dockerfile: string, escape: string): string[] {
  const lines: string[] = [];
  let pending: string | undefined;
  for (const raw of dockerfile.split(/\r?\n/)) {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const text = pending === undefined ? trimmed : `${pending} ${trimmed}`;
    if (text.endsWith(escape)) pending = text.slice(0, -escape.length).trimEnd();
    else {
      lines.push(text);
      pending = undefined;
    }
  }
  if (pending !== undefined) lines.push(pending);
  return lines;
}

/** The key/value pairs of one ENV instruction's arguments, in order. */
function envAssignments(args: string, escape: string): Array<[string, string]> {
  const words = shellWords(args, escape);
  if (words.length > 0 && !words[0].includes('=')) {
    // Legacy form: the first word is the key, everything after it the value.
    const value = args.trim().slice(/^\S+/.exec(args.trim())?.[0].length ?? 0);
    return [[words[0], shellWords(value, escape).join(' ')]];
  }
  return words.map((word) => {
    const equals = word.indexOf('=');
    return [word.slice(0, equals), word.slice(equals + 1)];
  });
}

/** Splits on unquoted whitespace and removes quotes and escapes, as Docker does for ENV. */
function shellWords(text: string, escape: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  const add = (chars: string): void => {
    word = (word ?? '') + chars;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else add(char);
    } else if (char === escape && i + 1 < text.length) {
      const next = text[++i];
      // Inside double quotes an escape only escapes a quote, a dollar or itself.
      add(quote === '"' && !`"$${escape}`.includes(next) ? char + next : next);
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else add(char);
    } else if (char === '"' || char === "'") {
      quote = char;
      add('');
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else add(char);
  }
  if (quote !== undefined) throw new Error(`Dockerfile: unterminated ${quote} in ENV ${text}`);
  if (word !== undefined) words.push(word);
  return words;
}
