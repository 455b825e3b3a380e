import * as path from 'node:path';
import { readBoundedFile } from './bounded-file.reader';
import { parseRegistryFile } from './registry-file.parser';
import { SERVER_ID_PATTERN } from './upstream-file.schema';
import { validateUpstreamFile } from './upstream-file.validator';
import { UpstreamRecord } from './upstream-record';
import { resolveUpstreamRecord } from './upstream-record.resolver';
import { RejectedFile, rejectedFile } from './upstream-registry';
import type { SecretFilePolicy } from './secret-file.reader';
import { REGISTRY_LIMITS } from './upstream-registry.limits';

export interface LoadFileOptions {
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Unknown keys reject the file (true) or are warnings (false). */
  strict: boolean;
  /** Where `file:` secrets may be read (`upstreams.secret_dirs`); derived from `dir` when absent. */
  secretFiles?: SecretFilePolicy;
}

export type FileOutcome =
  | { ok: true; record: UpstreamRecord; warnings: string[] }
  | { ok: false; rejected: RejectedFile; warnings: string[] };

/** One registry file from bytes on disk to a record: read, parse, validate, resolve. */
export function loadRegistryFile(name: string, options: LoadFileOptions): FileOutcome {
  const read = readBoundedFile(path.join(options.dir, name), {
    maxBytes: REGISTRY_LIMITS.maxFileBytes,
    followSymlinks: false,
  });
  if (!read.ok) return refused(name, [read.problem]);
  return loadRegistryBytes(name, read.bytes, options);
}

/**
 * A registry file's bytes to a record, exactly as a file in the directory
 * (the admin API and the PostgreSQL store hand their bodies in here); `name`
 * gives the format by its extension and is what problems are reported under.
 */
export function loadRegistryBytes(
  name: string,
  bytes: Buffer,
  options: LoadFileOptions,
): FileOutcome {
  if (bytes.length > REGISTRY_LIMITS.maxFileBytes) {
    return refused(name, [
      `is larger than ${REGISTRY_LIMITS.maxFileBytes} bytes (the registry's limit)`,
    ]);
  }
  const parsed = parseRegistryFile(name, bytes);
  if (!parsed.ok) return refused(name, [parsed.problem]);

  const serverId = declaredServerId(parsed.data);
  const validation = validateUpstreamFile(parsed.data);
  const warnings: string[] = [];
  const problems = validation.ok ? [] : [...validation.problems];
  if (options.strict) problems.unshift(...validation.unknownKeys);
  else warnings.push(...validation.unknownKeys.map((key) => `${name}: ${key} (ignored)`));
  if (!validation.ok || problems.length > 0) return refused(name, problems, serverId, warnings);

  const resolved = resolveUpstreamRecord(validation.file, name, options);
  if (!resolved.ok) return refused(name, resolved.problems, serverId, warnings);
  return { ok: true, record: resolved.record, warnings };
}

function refused(
  name: string,
  problems: string[],
  serverId?: string,
  warnings: string[] = [],
): FileOutcome {
  return { ok: false, rejected: rejectedFile(name, problems, serverId), warnings };
}

/** The server_id a file names, when it is a valid one, so that a rejection can say whose it was. */
function declaredServerId(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const id = (data as Record<string, unknown>).server_id;
  return typeof id === 'string' && SERVER_ID_PATTERN.test(id) ? id : undefined;
}
