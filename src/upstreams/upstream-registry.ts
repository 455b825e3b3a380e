import type { UpstreamRecord } from './upstream-record';

/** A registry file (or the directory itself) that loaded no server, and why. */
export interface RejectedFile {
  /** A name inside the registry directory, or the directory's path when it is the directory. */
  file: string;
  /** When the file named a valid server_id. */
  serverId?: string;
  /** Every problem, joined: one line for logs and tables. */
  reason: string;
  /** Each problem as `key: message` (or a message about the file as a whole). */
  problems: string[];
}

/** One scan of the registry directory: what loaded, what did not, and a revision to compare scans. */
export interface UpstreamRegistry {
  dir: string;
  /** A content hash of `servers`: equal for scans of unchanged files. */
  revision: string;
  /** ISO 8601 time of the scan. */
  loadedAt: string;
  /** Sorted by server_id. */
  servers: UpstreamRecord[];
  /** Sorted by file name. */
  rejected: RejectedFile[];
  warnings: string[];
}

export function rejectedFile(file: string, problems: string[], serverId?: string): RejectedFile {
  return { file, ...(serverId ? { serverId } : {}), reason: problems.join('; '), problems };
}
