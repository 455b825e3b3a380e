/**
 * Splits a byte stream into newline-terminated lines, buffering partial lines.
 * Lines longer than `maxLineBytes` are dropped whole, so a peer that never
 * sends a newline cannot make the buffer grow without bound. Such a line is
 * reported once, as soon as it crosses the limit: a peer that never sends the
 * newline still gets told instead of waiting forever.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(0x0a, start);
    while (newline !== -1) {
      this.append(chunk.subarray(start, newline));
      this.flushLine();
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    this.append(chunk.subarray(start));
  }

  /** At end of input a final line without newline still counts. */
  end(): void {
    if (this.buffered > 0 || this.discarding) this.flushLine();
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.discarding) {
      this.buffered += part.length;
      return;
    }
    if (this.buffered + part.length > this.maxLineBytes) {
      this.discarding = true;
      this.chunks = [];
      this.buffered += part.length;
      this.onOversize(this.buffered);
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
  }

  private flushLine(): void {
    if (!this.discarding) {
      let line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
      if (line.length > 0 && line.some((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0d))
        this.onLine(line);
    }
    this.chunks = [];
    this.buffered = 0;
    this.discarding = false;
  }
}
