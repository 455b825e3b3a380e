/** One JSON log line a gateway wrote to stderr. */
export type LogLine = Record<string, unknown>;

/** Every complete JSON line of a gateway's stderr so far (a line still being written is left out). */
export function logLines(stderr: string): LogLine[] {
  const complete = stderr.slice(0, stderr.lastIndexOf('\n') + 1);
  const lines: LogLine[] = [];
  for (const text of complete.split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      // Not a log line (a child's own output); the lines around it still count.
    }
  }
  return lines;
}

/**
 * The first log line that passes `test`, polling the gateway's stderr: lines
 * are written asynchronously, a moment after the answer they describe.
 */
export async function waitForLogLine(
  stderr: () => string,
  test: (line: LogLine) => boolean,
  what: string,
): Promise<LogLine> {
  for (let tries = 0; tries < 200; tries++) {
    const found = logLines(stderr()).find(test);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no log line ${what} after 10 s; stderr ends with:\n${stderr().slice(-3000)}`);
}

/** The `mcp request` line of one request, found by its JSON-RPC id (as logged: text) and session. */
export function requestLine(
  stderr: () => string,
  requestId: string | number,
  sessionId?: string,
): Promise<LogLine> {
  return waitForLogLine(
    stderr,
    (line) =>
      line.msg === 'mcp request' &&
      line.requestId === String(requestId) &&
      (sessionId === undefined || line.sessionId === sessionId),
    `'mcp request' for request ${requestId}`,
  );
}
