import { fstatSync, statSync } from 'node:fs';

/**
 * A file as it was opened (device and inode): a process keeps writing to a
 * file someone removed or replaced, and no one else ever reads those writes,
 * so the path is compared with what was opened.
 */
export class OpenedFile {
  private constructor(
    readonly path: string,
    private readonly dev: number,
    private readonly ino: number,
  ) {}

  static byPath(path: string): OpenedFile {
    const stats = statSync(path);
    return new OpenedFile(path, stats.dev, stats.ino);
  }

  static byDescriptor(path: string, fd: number): OpenedFile {
    const stats = fstatSync(fd);
    return new OpenedFile(path, stats.dev, stats.ino);
  }

  /** What happened to the file at its path ('removed', 'replaced'), or undefined while it is there. */
  change(): string | undefined {
    try {
      const stats = statSync(this.path);
      return stats.dev === this.dev && stats.ino === this.ino ? undefined : 'replaced';
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'removed';
      return `not readable (${(err as Error).message})`;
    }
  }
}
