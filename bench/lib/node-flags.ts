import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { finalStageEnv } from './dockerfile-env';
import { REPO_ROOT } from './paths';

export const DOCKERFILE = join(REPO_ROOT, 'Dockerfile');

/**
 * The node flags operators deploy: NODE_OPTIONS of the Dockerfile's final
 * stage, as separate arguments. Every server the bench starts gets them, so
 * no target runs with settings the others lack.
 */
export function dockerfileNodeFlags(dockerfile = DOCKERFILE): string[] {
  const value = finalStageEnv(readFileSync(dockerfile, 'utf8')).get('NODE_OPTIONS');
  if (value === undefined) {
    throw new Error(
      `${dockerfile}: its final stage sets no NODE_OPTIONS (ENV NODE_OPTIONS="<flags>"), ` +
        'the node flags every benchmarked server runs with; add it, or pass --node-flags "<flags>" ' +
        '(--node-flags "" for none)',
    );
  }
  if (value.includes('$')) {
    throw new Error(
      `${dockerfile}: NODE_OPTIONS="${value}" uses a variable, which the bench does not expand; ` +
        'write the flags out, or pass --node-flags "<flags>"',
    );
  }
  return splitNodeOptions(value);
}

/**
 * Splits a NODE_OPTIONS value as node does (ParseNodeOptionsEnvVar): spaces
 * separate, double quotes group, and inside them a backslash escapes the next character.
 */
export function splitNodeOptions(value: string): string[] {
  const flags: string[] = [];
  let startsNew = true;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    let char = value[i];
    if (char === '\\' && quoted) {
      if (i + 1 === value.length)
        throw new Error(`NODE_OPTIONS: invalid escape at the end of ${value}`);
      char = value[++i];
    } else if (char === ' ' && !quoted) {
      startsNew = true;
      continue;
    } else if (char === '"') {
      quoted = !quoted;
      continue;
    }
    if (startsNew) flags.push(char);
    else flags[flags.length - 1] += char;
    startsNew = false;
  }
  if (quoted) throw new Error(`NODE_OPTIONS: unterminated " in ${value}`);
  return flags;
}

/** The inverse of splitNodeOptions: one NODE_OPTIONS value holding these flags. */
export function joinNodeOptions(flags: readonly string[]): string {
  return flags
    .map((flag) => (/^[^\s"\\]+$/.test(flag) ? flag : `"${flag.replace(/["\\]/g, '\\$&')}"`))
    .join(' ');
}
