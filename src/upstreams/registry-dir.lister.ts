import { Dir, opendirSync } from 'node:fs';
import { isRegistryFileName, REGISTRY_EXTENSIONS } from './registry-file.parser';
import { REGISTRY_LIMITS } from './upstream-registry.limits';
import { RejectedFile, rejectedFile } from './upstream-registry';

export interface RegistryListing {
  /** Registry files to read, sorted by name (the order "last wins" refers to). */
  files: string[];
  rejected: RejectedFile[];
  warnings: string[];
}

// Editors' backups and swap files, and files being written by tools that rename into place.
const TEMP_SUFFIXES = ['~', '.swp', '.tmp'];
const SYMLINK_REFUSED =
  'is a symbolic link; registry files must be regular files (links are refused)';

/**
 * Which entries of the registry directory are registry files. Not recursive;
 * hidden and temporary files are skipped; a symbolic link is refused rather
 * than followed; a directory with more than REGISTRY_LIMITS.maxFiles entries
 * is refused whole, before it is read to the end. A missing directory is an
 * empty registry.
 */
export function listRegistryDir(dir: string): RegistryListing {
  const listing: RegistryListing = { files: [], rejected: [], warnings: [] };
  let handle: Dir;
  try {
    handle = opendirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return listing;
    const reason =
      code === 'ENOTDIR' ? 'is not a directory' : `cannot be read (${code ?? 'error'})`;
    listing.rejected.push(rejectedFile(dir, [reason]));
    return listing;
  }
  try {
    let entries = 0;
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (++entries > REGISTRY_LIMITS.maxFiles) {
        const reason = `holds more than ${REGISTRY_LIMITS.maxFiles} entries (the registry's limit); nothing in it is loaded`;
        return { files: [], rejected: [rejectedFile(dir, [reason])], warnings: [] };
      }
      const name = entry.name;
      if (name.startsWith('.') || TEMP_SUFFIXES.some((suffix) => name.endsWith(suffix))) continue;
      if (entry.isDirectory()) continue;
      if (!isRegistryFileName(name)) {
        listing.warnings.push(`${name}: ignored (not ${REGISTRY_EXTENSIONS.join(', ')})`);
        continue;
      }
      if (entry.isSymbolicLink()) {
        listing.rejected.push(rejectedFile(name, [SYMLINK_REFUSED]));
      } else if (!entry.isFile()) {
        listing.rejected.push(rejectedFile(name, ['is not a regular file']));
      } else {
        listing.files.push(name);
      }
    }
  } finally {
    handle.closeSync();
  }
  listing.files.sort();
  listing.warnings.sort();
  return listing;
}
