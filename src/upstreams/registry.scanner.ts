import { listRegistryDir } from './registry-dir.lister';
import { FileOutcome, loadRegistryBytes, loadRegistryFile } from './registry-file.loader';
import { registryRevision } from './registry-revision';
import type { SecretFilePolicy } from './secret-file.reader';
import { UpstreamRecord } from './upstream-record';
import { RejectedFile, rejectedFile, UpstreamRegistry } from './upstream-registry';

export interface ScanOptions {
  /** Unknown keys reject a file (`upstreams.strict`). */
  strict: boolean;
  now?: () => Date;
  /**
   * Records kept outside the directory (the PostgreSQL store of scale-out mode),
   * loaded after the directory's files, so they win a server_id over a file.
   */
  stored?: readonly StoredRegistryFile[];
  /** Where `file:` secrets may be read (`upstreams.secret_dirs`); derived from `dir` when absent. */
  secretFiles?: SecretFilePolicy;
}

/** A registry file body kept somewhere else than the directory; `name` gives its format. */
export interface StoredRegistryFile {
  name: string;
  bytes: Buffer;
}

/**
 * Reads the registry directory into a snapshot. A file that fails takes no
 * further part: it cannot win a duplicate server_id or claim a namespace.
 * Among the files that load, the last by name wins a server_id, and the first
 * by name keeps a tool_namespace. Reads only the directory and secret files.
 */
export function scanRegistry(
  dir: string,
  env: NodeJS.ProcessEnv,
  options: ScanOptions,
): UpstreamRegistry {
  const listing = listRegistryDir(dir);
  const rejected: RejectedFile[] = [...listing.rejected];
  const warnings: string[] = [...listing.warnings];
  const loaded: UpstreamRecord[] = [];
  const loadOptions = { dir, env, strict: options.strict, secretFiles: options.secretFiles };
  const outcomes: FileOutcome[] = listing.files.map((name) => loadRegistryFile(name, loadOptions));
  for (const file of options.stored ?? []) {
    outcomes.push(loadRegistryBytes(file.name, file.bytes, loadOptions));
  }
  for (const outcome of outcomes) {
    warnings.push(...outcome.warnings);
    if (outcome.ok) loaded.push(outcome.record);
    else rejected.push(outcome.rejected);
  }
  const servers = withUniqueNamespaces(lastByServerId(loaded, warnings), rejected);
  servers.sort((a, b) => compare(a.server_id, b.server_id));
  rejected.sort((a, b) => compare(a.file, b.file));
  return {
    dir,
    revision: registryRevision(servers),
    loadedAt: (options.now?.() ?? new Date()).toISOString(),
    servers,
    rejected,
    warnings,
  };
}

/** `loaded` is in file-name order; a later file replaces an earlier one's server. */
function lastByServerId(loaded: UpstreamRecord[], warnings: string[]): UpstreamRecord[] {
  const byId = new Map<string, UpstreamRecord>();
  for (const record of loaded) {
    const earlier = byId.get(record.server_id);
    if (earlier) {
      warnings.push(
        `server_id "${record.server_id}" is declared by ${earlier.file} and ${record.file}; ` +
          `${record.file} wins (the last by file name)`,
      );
      byId.delete(record.server_id);
    }
    byId.set(record.server_id, record);
  }
  return [...byId.values()].sort((a, b) => compare(a.file, b.file));
}

function withUniqueNamespaces(
  records: UpstreamRecord[],
  rejected: RejectedFile[],
): UpstreamRecord[] {
  const owners = new Map<string, UpstreamRecord>();
  const kept: UpstreamRecord[] = [];
  for (const record of records) {
    const owner = owners.get(record.tool_namespace);
    if (owner) {
      const problem =
        `tool_namespace: "${record.tool_namespace}" is already used by server ` +
        `"${owner.server_id}" (${owner.file}); server "${record.server_id}" (${record.file}) is not loaded`;
      rejected.push(rejectedFile(record.file, [problem], record.server_id));
      continue;
    }
    owners.set(record.tool_namespace, record);
    kept.push(record);
  }
  return kept;
}

/** Code-unit order: the same on every machine, whatever its locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
