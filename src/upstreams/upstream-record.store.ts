import type { StoredRegistryFile } from './registry.scanner';

/** The formats a registry body may be written in (the file extension it gets). */
export const REGISTRY_FORMATS = ['json', 'yaml', 'toml'] as const;
export type RegistryFormat = (typeof REGISTRY_FORMATS)[number];

export const UPSTREAM_RECORD_STORE = Symbol('UpstreamRecordStore');

/**
 * Where records written through the admin API live: files in the registry
 * directory (embedded mode) or a PostgreSQL table merged with the directory
 * (scale-out mode). Either way the registry is then scanned again.
 */
export interface UpstreamRecordStore {
  readonly kind: 'directory' | 'postgres';
  /** Bodies kept outside the directory, loaded after its files (so they win a server_id). */
  list(): Promise<StoredRegistryFile[]>;
  /** Changes whenever a record is written or removed (by any replica). */
  revision(): Promise<string>;
  /**
   * Writes `server_id`'s body. `definedBy` is the registry entry that defines it
   * now (its `file`), which a directory store replaces.
   */
  put(serverId: string, format: RegistryFormat, text: string, definedBy?: string): Promise<void>;
  /** Removes the record defined by `definedBy`. */
  remove(serverId: string, definedBy: string): Promise<void>;
  close(): Promise<void>;
}

/** A write the store cannot make (a file it may not write, a record it does not hold): 409. */
export class RecordStoreConflict extends Error {}
