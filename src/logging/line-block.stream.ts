/**
 * Where blocks go: sonic-boom (pino.destination) writing asynchronously,
 * and, at exit, a synchronous write of what is left to the same file.
 */
export interface BlockTarget {
  write(block: string): unknown;
  /** Writes what the target holds and has not started writing, before returning. */
  flushSync(): void;
  /** Writes `block` before returning, after everything handed to write() so far. */
  writeSync(block: string): void;
}

/** Every block stream of the process, written out when the process exits. */
const open = new Set<LineBlockStream>();

// 'exit' also follows an uncaught exception and process.exit().
process.once('exit', () => {
  for (const stream of open) stream.flushSync();
});

/**
 * Log lines gathered into blocks of about `blockBytes` before they reach
 * sonic-boom. sonic-boom itself can gather up to a minimum length, but it
 * appends each line to its pending string and measures that string
 * (Buffer.byteLength flattens it): with a 4 KiB minimum it copies the block
 * once per line, about three times the garbage of the lines themselves,
 * and a governance decision is logged for every call. Here a line is an
 * array push; the block is joined once.
 */
export class LineBlockStream {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly target: BlockTarget,
    private readonly blockBytes: number,
  ) {
    open.add(this);
  }

  write(line: string): void {
    this.parts.push(line);
    // Characters, not bytes: close enough for when to hand a block on.
    this.size += line.length;
    if (this.size >= this.blockBytes) this.flush();
  }

  /** Hands what has gathered to the target, which writes it asynchronously. */
  flush(): void {
    if (this.parts.length === 0) return;
    const block = this.parts.length === 1 ? this.parts[0] : this.parts.join('');
    this.parts = [];
    this.size = 0;
    this.target.write(block);
  }

  /**
   * Everything gathered, written before this returns (at exit). Not through
   * write(): sonic-boom would start an asynchronous write there, which a
   * process that is exiting never finishes.
   */
  flushSync(): void {
    const rest = this.parts.join('');
    this.parts = [];
    this.size = 0;
    try {
      this.target.flushSync();
      if (rest.length > 0) this.target.writeSync(rest);
    } catch {
      // The target is closed already, or the file refuses writes: nothing more can be written.
    }
  }
}
