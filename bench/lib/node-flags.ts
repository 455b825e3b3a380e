import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export const DOCKERFILE = join(REPO_ROOT, 'Dockerfile');

/**
 * The node flags operators deploy: those of the Dockerfile's last `CMD`
 * (exec form, `["node", <flags>..., <script>, ...]`). Every server the bench
 * starts gets them, so no target runs with settings the others lack.
 */
export function dockerfileNodeFlags(dockerfile = DOCKERFILE): string[] {
  const commands = readFileSync(dockerfile, 'utf8')
    .split('\n')
    .filter((line) => /^CMD\s*\[/i.test(line));
  const last = commands.at(-1);
  const words: unknown = last === undefined ? undefined : JSON.parse(last.replace(/^CMD\s*/i, ''));
  if (!Array.isArray(words) || words[0] !== 'node') {
    throw new Error(
      `${dockerfile}: no CMD ["node", <flags>..., <script>, ...] on one line to read the node flags ` +
        'from; pass --node-flags "<flags>" (--node-flags "" for none)',
    );
  }
  return nodeFlagsOf(words.slice(1).map(String));
}

/** The leading `--` words of a node command line: its flags, before the script. */
export function nodeFlagsOf(args: readonly string[]): string[] {
  const script = args.findIndex((arg) => !arg.startsWith('--'));
  return args.slice(0, script === -1 ? args.length : script);
}

/** `--node-flags "<flags>"`: space-separated, as they would be typed. */
export function splitFlags(value: string): string[] {
  return value.split(/\s+/).filter((flag) => flag !== '');
}
