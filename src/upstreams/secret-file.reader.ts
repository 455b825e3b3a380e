import { realpathSync, statfsSync } from 'node:fs';
import * as path from 'node:path';
import { readBoundedFile } from './bounded-file.reader';
import { REGISTRY_LIMITS } from './upstream-registry.limits';

export type SecretRead = { ok: true; secret: string } | { ok: false; problem: string };

/** Where an upstream's `file:` secrets may live, and how large one may be. */
export interface SecretFilePolicy {
  /** Absolute directories; a secret's real path (links followed) must lie inside one. */
  dirs: readonly string[];
  maxBytes: number;
}

export const SECRET_DIRS_KEY = 'upstreams.secret_dirs';
export const SECRET_MAX_BYTES_KEY = 'upstreams.secret_max_bytes';
/** Where Docker and Compose mount secrets. */
export const RUN_SECRETS_DIR = '/run/secrets';

// Kernel filesystems whose files look regular but are views of a process or the machine.
const PSEUDO_FILESYSTEMS = new Set([
  0x9fa0, // proc
  0x62656572, // sysfs
  0x64626720, // debugfs
  0x74726163, // tracefs
  0x73636673, // securityfs
  0x27e0eb, // cgroup
  0x63677270, // cgroup2
]);

/**
 * `upstreams.secret_dirs` left empty: the directory that holds the registry
 * directory (with the default layout, `config/`, beside the gateway's config
 * file, where `file:../token` written in a registry file lands), unless that
 * is the filesystem root, and /run/secrets.
 */
export function secretFilePolicy(
  registryDir: string,
  settings: { secret_dirs?: readonly string[]; secret_max_bytes?: number } = {},
): SecretFilePolicy {
  const parent = path.dirname(path.resolve(registryDir));
  const derived = [parent === path.parse(parent).root ? registryDir : parent, RUN_SECRETS_DIR];
  const dirs = settings.secret_dirs?.length ? settings.secret_dirs : derived;
  return {
    dirs: dirs.map((dir) => path.resolve(dir)),
    maxBytes: settings.secret_max_bytes ?? REGISTRY_LIMITS.maxFileBytes,
  };
}

/**
 * The secret an upstream's `auth_ref: file:...` names, read only when the
 * file is a regular file whose real path lies inside one of `policy.dirs`
 * and is no larger than `policy.maxBytes`. Links are followed (mounted
 * secrets are often links) but the place they lead to is what is checked.
 * Problems name the rule, never the content.
 */
export function readUpstreamSecretFile(file: string, policy: SecretFilePolicy): SecretRead {
  const refused = (problem: string): SecretRead => ({
    ok: false,
    problem: `secret file ${file} ${problem}`,
  });
  let real: string;
  try {
    real = realpathSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return refused(
      code === 'ENOENT' ? 'does not exist' : `cannot be resolved (${code ?? 'error'})`,
    );
  }
  if (!policy.dirs.some((dir) => isInside(real, realDir(dir)))) {
    const through = real === file ? '' : ` (its links lead to ${real})`;
    return refused(`is outside ${SECRET_DIRS_KEY} (${policy.dirs.join(', ')})${through}`);
  }
  if (onPseudoFilesystem(real)) {
    return refused(
      `is on a kernel filesystem (/proc, /sys): ${SECRET_DIRS_KEY} admits regular files only`,
    );
  }
  // The real path has no links left: one swapped in since is refused, not followed.
  const read = readBoundedFile(real, {
    maxBytes: policy.maxBytes,
    followSymlinks: false,
    limit: SECRET_MAX_BYTES_KEY,
  });
  if (!read.ok) return refused(read.problem);
  return secretText(file, read.bytes);
}

/**
 * The secret a gateway config key names by `file:` (operator-written, so no
 * directory rule): the file's text without the surrounding whitespace an
 * editor or `echo` adds. Symbolic links are followed.
 */
export function readSecretFile(file: string): SecretRead {
  const read = readBoundedFile(file, {
    maxBytes: REGISTRY_LIMITS.maxFileBytes,
    followSymlinks: true,
  });
  if (!read.ok) return { ok: false, problem: `secret file ${file} ${read.problem}` };
  return secretText(file, read.bytes);
}

function secretText(file: string, bytes: Buffer): SecretRead {
  const secret = bytes.toString('utf8').trim();
  if (secret === '') return { ok: false, problem: `secret file ${file} is empty` };
  return { ok: true, secret };
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
}

function onPseudoFilesystem(file: string): boolean {
  try {
    return PSEUDO_FILESYSTEMS.has(statfsSync(file).type);
  } catch {
    return false;
  }
}
