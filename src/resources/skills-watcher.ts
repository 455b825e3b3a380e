import { Dirent, FSWatcher, lstatSync, readdirSync, realpathSync, Stats, watch } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isInside } from './safe-path';

export interface SkillsWatcherEvents {
  /** Something changed at this path (relative to the root, `/`-separated); undefined: anywhere. */
  changed(relPath: string | undefined): void;
  /** A symbolic link under the root resolves outside it: it is not followed. */
  refused(linkPath: string): void;
  error(err: Error): void;
}

/**
 * Watches the skills directory without following a single symbolic link:
 * one non-recursive watch per real directory under the root, added and
 * dropped as directories come and go. Node's recursive watch on Linux puts a
 * watch on whatever a link points at, inside the directory or not. A link
 * that stays inside needs no watch (its target is watched where it is), but
 * its changes reach the skills that use the link only by a full rescan.
 */
export class SkillsWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly refusedLinks = new Set<string>();
  private readonly innerLinks = new Set<string>();
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly events: SkillsWatcherEvents,
  ) {}

  start(): void {
    this.watchTree(this.root);
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Directories under watch (the root included); for tests and diagnostics. */
  get watchedDirectories(): string[] {
    return [...this.watchers.keys()];
  }

  private watchTree(dir: string): void {
    if (this.closed || this.watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => this.onEvent(dir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.events.error(err as Error);
      return;
    }
    watcher.on('error', (err) => {
      this.unwatchUnder(dir);
      this.events.error(err);
    });
    this.watchers.set(dir, watcher);
    for (const entry of entriesOf(dir)) this.inspect(join(dir, entry.name));
  }

  /** A real directory gets watched; a link is checked and never followed. */
  private inspect(path: string): Stats | undefined {
    const stat = lstatOf(path);
    if (stat?.isSymbolicLink()) this.checkLink(path);
    else if (stat?.isDirectory()) this.watchTree(path);
    return stat;
  }

  private checkLink(path: string): void {
    const target = realpathOf(path);
    if (target !== undefined && isInside(this.root, target)) {
      this.refusedLinks.delete(path);
      this.innerLinks.add(path);
      return;
    }
    this.innerLinks.delete(path);
    if (this.refusedLinks.has(path)) return;
    this.refusedLinks.add(path);
    this.events.refused(path);
  }

  private onEvent(dir: string, name: string | Buffer | null): void {
    if (this.closed) return;
    if (lstatOf(dir)?.isDirectory() !== true) {
      this.unwatchUnder(dir);
      this.events.changed(this.relative(dir));
      return;
    }
    if (name === null) {
      this.events.changed(this.relative(dir));
      return;
    }
    const path = join(dir, name.toString());
    const stat = this.inspect(path);
    if (!stat?.isSymbolicLink()) {
      this.refusedLinks.delete(path);
      this.innerLinks.delete(path);
    }
    if (!stat?.isDirectory()) this.unwatchUnder(path);
    this.events.changed(this.innerLinks.size > 0 ? undefined : this.relative(path));
  }

  private unwatchUnder(path: string): void {
    for (const [dir, watcher] of this.watchers) {
      if (dir === path || dir.startsWith(path + sep)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
  }

  private relative(path: string): string {
    return relative(this.root, path).split(sep).join('/');
  }
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function realpathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
