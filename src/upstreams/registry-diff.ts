import { registryRevision } from './registry-revision';
import { masked } from './upstream-record.masking';
import { UpstreamRecord } from './upstream-record';

/** What differs between two sets of records, by server_id. */
export interface RegistryDiff {
  added: string[];
  removed: string[];
  /** Servers in both whose record differs (the file they came from does not count). */
  changed: string[];
}

/** One record's content hash: equal records give equal hashes in every process. */
export function recordHash(record: UpstreamRecord): string {
  return registryRevision([record]);
}

export function diffRecords(
  before: readonly UpstreamRecord[],
  after: readonly UpstreamRecord[],
): RegistryDiff {
  return diffHashes(hashesOf(before), hashesOf(after));
}

/** The same diff over `server_id -> recordHash` maps (what a running gateway reports). */
export function diffHashes(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): RegistryDiff {
  const added = [...after.keys()].filter((id) => !before.has(id)).sort();
  const removed = [...before.keys()].filter((id) => !after.has(id)).sort();
  const changed = [...after]
    .filter(([id, hash]) => before.has(id) && before.get(id) !== hash)
    .map(([id]) => id)
    .sort();
  return { added, removed, changed };
}

export function hashesOf(records: readonly UpstreamRecord[]): Map<string, string> {
  return new Map(records.map((record) => [record.server_id, recordHash(record)]));
}

/** One field that differs, as `a.b.c`, with both values shown masked. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The fields that differ between two records, compared on their masked
 * forms so that no secret is printed; a change that only a secret carries is
 * reported as `(a secret value)`.
 */
export function changedFields(before: UpstreamRecord, after: UpstreamRecord): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(stripFile(masked(before)), stripFile(masked(after)), '', changes);
  if (changes.length === 0 && recordHash(before) !== recordHash(after)) {
    changes.push({ field: '(a secret value)', before: '***', after: '***' });
  }
  return changes;
}

/** The same comparison when both sides are already masked (a running gateway's answer). */
export function changedMaskedFields(before: unknown, after: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  walk(stripFile(before), stripFile(after), '', changes);
  return changes;
}

function stripFile(record: unknown): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const copy = { ...(record as Record<string, unknown>) };
  delete copy.file;
  return copy;
}

// Records are at most a few levels deep (validated), so the recursion is bounded.
function walk(before: unknown, after: unknown, at: string, out: FieldChange[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) walk(before[key], after[key], at ? `${at}.${key}` : key, out);
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    out.push({ field: at || '(record)', before, after });
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
