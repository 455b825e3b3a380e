/** What the block is handed to: sonic-boom (pino.destination), writing asynchronously. */
export interface BlockTarget {
  write(block: string): unknown;
  flushSync(): void;
}

/** Every block stream of the process, flushed into its target when the process exits. */
const open = new Set<LineBlockStream>();

// Registered when this module loads, before pino.destination registers its own exit flush
// (lazily, at the first destination): so a block reaches sonic-boom before sonic-boom's last
// synchronous write. 'exit' also follows an uncaught exception.
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

  /** Everything gathered, written before this returns (at exit). */
  flushSync(): void {
    try {
      this.flush();
      this.target.flushSync();
    } catch {
      // The target is closed already (its own exit flush ran): nothing more can be written.
    }
  }
}
