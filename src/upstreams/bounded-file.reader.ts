import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type BoundedRead = { ok: true; bytes: Buffer } | { ok: false; problem: string };

export interface BoundedReadOptions {
  maxBytes: number;
  /** When false, a symbolic link at the path itself is refused (O_NOFOLLOW). */
  followSymlinks: boolean;
  /** The config key of `maxBytes`, named when a file is refused for its size. */
  limit?: string;
}

/**
 * Reads a regular file of at most `maxBytes`. The file is opened first and
 * checked through its descriptor, so a swap between check and read changes
 * nothing, and without blocking, so a FIFO named like a file cannot stall the
 * scan. Problems name the limit, never the content.
 */
export function readBoundedFile(file: string, options: BoundedReadOptions): BoundedRead {
  const flags =
    constants.O_RDONLY | constants.O_NONBLOCK | (options.followSymlinks ? 0 : constants.O_NOFOLLOW);
  let fd: number;
  try {
    fd = openSync(file, flags);
  } catch (err) {
    return { ok: false, problem: openProblem(err as NodeJS.ErrnoException) };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { ok: false, problem: 'is not a regular file' };
    if (stats.size > options.maxBytes) return { ok: false, problem: tooBig(options) };
    // One byte more than allowed tells a file that grew since fstat from one that fits.
    const buffer = Buffer.alloc(options.maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > options.maxBytes) return { ok: false, problem: tooBig(options) };
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (err) {
    return {
      ok: false,
      problem: `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  } finally {
    closeSync(fd);
  }
}

function tooBig(options: BoundedReadOptions): string {
  const size = `${options.maxBytes} bytes (${options.maxBytes / 1024} KiB)`;
  return options.limit === undefined
    ? `is larger than the limit of ${size}`
    : `is larger than ${options.limit}: ${size}`;
}

function openProblem(err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT') return 'does not exist';
  // O_NOFOLLOW on a symbolic link fails with ELOOP (Linux) or EMLINK (BSD).
  if (err.code === 'ELOOP' || err.code === 'EMLINK') {
    return 'is a symbolic link; symbolic links are refused';
  }
  return `cannot be opened (${err.code ?? 'error'})`;
}
