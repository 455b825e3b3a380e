/** Announces a listening HTTP server the way the gateway does (one JSON line on stderr). */
export function announceListening(port: number): void {
  process.stderr.write(`${JSON.stringify({ msg: 'listening', port })}\n`);
}

/** Exits cleanly on SIGTERM / SIGINT (the bench stops every server with SIGTERM). */
export function exitOnSignals(): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
}
