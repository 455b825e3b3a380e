/**
 * The round-robin proxy as a server of its own (`node round-robin-proxy-main.js
 * <backend url>...`), so that under load it has its own process and its CPU
 * time can be read from /proc apart from the load generator's.
 */
import { announceListening, exitOnSignals } from './listening';
import { RoundRobinProxy } from './round-robin-proxy';

async function main(): Promise<void> {
  const backends = process.argv.slice(2);
  if (backends.length === 0) throw new Error('usage: round-robin-proxy-main <backend url>...');
  exitOnSignals();
  const proxy = await RoundRobinProxy.start(backends, { recordServed: false });
  announceListening(Number(new URL(proxy.url).port));
}

main().catch((err: unknown) => {
  process.stderr.write(`round-robin proxy failed: ${String(err)}\n`);
  process.exit(1);
});
