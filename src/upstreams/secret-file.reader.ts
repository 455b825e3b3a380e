import { readBoundedFile } from './bounded-file.reader';
import { REGISTRY_LIMITS } from './upstream-registry.limits';

export type SecretRead = { ok: true; secret: string } | { ok: false; problem: string };

/**
 * The secret an `auth_ref: file:...` names: the file's text without the
 * surrounding whitespace an editor or `echo` adds. Symbolic links are
 * followed here (mounted secrets are often links); the registry files
 * themselves are never read through one.
 */
export function readSecretFile(file: string): SecretRead {
  const read = readBoundedFile(file, {
    maxBytes: REGISTRY_LIMITS.maxFileBytes,
    followSymlinks: true,
  });
  if (!read.ok) return { ok: false, problem: `secret file ${file} ${read.problem}` };
  const secret = read.bytes.toString('utf8').trim();
  if (secret === '') return { ok: false, problem: `secret file ${file} is empty` };
  return { ok: true, secret };
}
