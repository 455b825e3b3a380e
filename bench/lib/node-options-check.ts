import { spawnSync } from 'node:child_process';
import { childEnv } from './child-env';
import { joinNodeOptions } from './node-flags';

/**
 * Why node refuses these flags in NODE_OPTIONS, or undefined when it takes
 * them. Node accepts only some V8 flags there, so a Dockerfile can name flags
 * that the bench (which passes them as arguments) runs with but the image
 * would not start with.
 */
export function nodeOptionsRefusal(flags: readonly string[]): string | undefined {
  if (flags.length === 0) return undefined;
  const probe = spawnSync(process.execPath, ['-e', ''], {
    env: { ...childEnv(), NODE_OPTIONS: joinNodeOptions(flags) },
    encoding: 'utf8',
  });
  if (probe.status === 0) return undefined;
  return probe.stderr.trim() || `node exited with ${probe.status ?? probe.signal}`;
}
