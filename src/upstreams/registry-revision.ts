import { createHash } from 'node:crypto';
import { UpstreamRecord } from './upstream-record';

/**
 * A content hash of the loaded records: the same files (and the same values
 * behind their references) give the same revision in every process, so a CLI
 * listing and a running gateway can be compared. The file names are left
 * out: renaming a file changes no server.
 */
export function registryRevision(servers: readonly UpstreamRecord[]): string {
  const content = [...servers]
    .sort((a, b) => (a.server_id < b.server_id ? -1 : a.server_id > b.server_id ? 1 : 0))
    .map((server) => {
      const record: Partial<UpstreamRecord> = { ...server };
      delete record.file;
      return record;
    });
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 16);
}

/** JSON with object keys sorted at every depth, so key order in a file changes nothing. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, child]) => child !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
