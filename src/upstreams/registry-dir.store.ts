import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { RecordStoreConflict, RegistryFormat, UpstreamRecordStore } from './upstream-record.store';

/**
 * Embedded mode: an admin-written record is a file `<server_id>.<ext>` in the
 * registry directory, written to a hidden temp file and renamed into place,
 * so a scan sees the old file or the new one, never half of one.
 */
export class RegistryDirStore implements UpstreamRecordStore {
  readonly kind = 'directory';

  constructor(private readonly dir: string) {}

  list(): Promise<[]> {
    return Promise.resolve([]);
  }

  revision(): Promise<string> {
    return Promise.resolve('directory');
  }

  async put(
    serverId: string,
    format: RegistryFormat,
    text: string,
    definedBy?: string,
  ): Promise<void> {
    const name = `${serverId}.${format}`;
    await guarded(`cannot write ${name} in ${this.dir}`, async () => {
      await mkdir(this.dir, { recursive: true });
      const temp = path.join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await writeFile(temp, text, { flag: 'wx', mode: 0o600 });
        await rename(temp, path.join(this.dir, name));
      } catch (err) {
        await unlink(temp).catch(() => undefined);
        throw err;
      }
    });
    // The old file would otherwise keep declaring the server (and win or lose by name).
    if (definedBy !== undefined && definedBy !== name) await this.remove(serverId, definedBy);
  }

  async remove(serverId: string, definedBy: string): Promise<void> {
    if (definedBy.includes('/') || definedBy.includes(path.sep) || definedBy.startsWith('.')) {
      throw new RecordStoreConflict(`server ${serverId} is not defined by a registry file`);
    }
    await guarded(`cannot remove ${definedBy} from ${this.dir}`, () =>
      unlink(path.join(this.dir, definedBy)),
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A read-only mount or a file owned by someone else is the operator's to fix: say which file. */
async function guarded(what: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new RecordStoreConflict(`${what} (${code}); change it on disk instead`);
  }
}
