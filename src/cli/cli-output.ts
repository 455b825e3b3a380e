/**
 * CLI commands other than `start` print their results to stdout (that is
 * their job); `start --transport stdio` never reaches this file.
 */
export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function printError(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** A plain text table: columns padded to their widest cell, long cells cut at `maxWidth`. */
export function formatTable(headers: string[], rows: string[][], maxWidth = 60): string {
  const clip = (cell: string) => {
    const flat = cell.replace(/\s+/g, ' ').trim();
    return flat.length > maxWidth ? `${flat.slice(0, maxWidth - 1)}…` : flat;
  };
  const cells = [headers, ...rows].map((row) => row.map(clip));
  const widths = headers.map((_, col) => Math.max(...cells.map((row) => (row[col] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, col) => cell.padEnd(widths[col]))
      .join('  ')
      .trimEnd();
  return [
    line(cells[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
  ].join('\n');
}
