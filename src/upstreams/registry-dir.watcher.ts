import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { existsSync, FSWatcher, statSync, watch } from 'node:fs';
import { errorChain } from './error-chain';
import { UpstreamRegistryService } from './upstream-registry.service';

/** Editors and `cp` write a file in several steps: one scan after they settle. */
export const REGISTRY_SETTLE_MS = 200;
/** While the directory is absent (or its watch broke), how often to look for it again. */
export const REGISTRY_REARM_MS = 1_000;

/**
 * Scans the registry again when its directory changes: fs.watch on the
 * directory itself (not recursive: subdirectories are not registry files),
 * debounced, so a burst of writes is one scan. A directory that is absent,
 * removed or recreated is looked for again every REGISTRY_REARM_MS, and found
 * again it is scanned at once (its files may have changed meanwhile).
 */
@Injectable()
export class RegistryDirWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Upstreams');
  private watcher?: FSWatcher;
  /** The inode watched: a directory removed and made again is another one, with a dead watch. */
  private watchedIno?: number;
  private settle?: NodeJS.Timeout;
  private rearm?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly registry: UpstreamRegistryService) {}

  onApplicationBootstrap(): void {
    this.arm(false);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.settle);
    clearTimeout(this.rearm);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private arm(scanNow: boolean): void {
    if (this.stopped) return;
    const dir = this.registry.dir;
    try {
      this.watchedIno = statSync(dir).ino;
      this.watcher = watch(dir, { persistent: false }, () => this.changed());
    } catch {
      this.scheduleRearm();
      return;
    }
    this.watcher.on('error', (error) => {
      this.logger.warn({ msg: 'registry directory watch failed', dir, error: errorChain(error) });
      this.disarm();
      this.changed();
      this.scheduleRearm();
    });
    if (scanNow) this.changed();
  }

  /** Any event (a file, or the directory itself renamed or removed) leads to one settled scan. */
  private changed(): void {
    if (this.stopped) return;
    clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      if (this.watcher && inodeOf(this.registry.dir) !== this.watchedIno) {
        // The directory went away (or was replaced): its watch is dead. Scan, and watch it anew.
        this.disarm();
        this.scheduleRearm();
      }
      void this.registry.rescan('file');
    }, REGISTRY_SETTLE_MS);
    this.settle.unref();
  }

  private disarm(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private scheduleRearm(): void {
    if (this.stopped || this.rearm) return;
    this.rearm = setTimeout(() => {
      this.rearm = undefined;
      if (existsSync(this.registry.dir)) this.arm(true);
      else this.scheduleRearm();
    }, REGISTRY_REARM_MS);
    this.rearm.unref();
  }
}

function inodeOf(dir: string): number | undefined {
  try {
    return statSync(dir).ino;
  } catch {
    return undefined;
  }
}
