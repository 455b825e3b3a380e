import type { Stream } from 'node:stream';
import { MAX_STDERR_LINE_CHARS } from './upstream-connection.constants';

/**
 * Hands each stderr line of a stdio child to `log`, each cut to a bounded
 * length, so a child that writes without newlines cannot grow the gateway's memory.
 */
export function forwardStderrLines(stream: Stream, log: (line: string) => void): void {
  let line = '';
  let overflowed = false;
  stream.on('data', (chunk: Buffer | string) => {
    const parts = chunk.toString().split('\n');
    parts.forEach((part, index) => {
      if (index > 0) {
        if (line.length > 0) log(overflowed ? `${line} [cut]` : line);
        line = '';
        overflowed = false;
      }
      const room = MAX_STDERR_LINE_CHARS - line.length;
      if (part.length > room) overflowed = true;
      line += part.slice(0, Math.max(0, room));
    });
  });
  stream.on('end', () => {
    if (line.length > 0) log(overflowed ? `${line} [cut]` : line);
  });
}
