import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StdioUpstreamSpec {
  serverId: string;
  /** The compiled stdio server script and the node flags it runs with. */
  script: string;
  nodeFlags: readonly string[];
  allowedTools: string[];
  warm: boolean;
  maxConcurrency: number;
}

/** Writes one registry file per upstream (the gateway reads the directory at start) and returns the directory. */
export function writeStdioRegistry(dir: string, upstreams: readonly StdioUpstreamSpec[]): string {
  mkdirSync(dir, { recursive: true });
  for (const upstream of upstreams) {
    const record = {
      version: 1,
      server_id: upstream.serverId,
      transport: 'stdio',
      stdio: { command: process.execPath, args: [...upstream.nodeFlags, upstream.script] },
      allowed_tools: upstream.allowedTools,
      warm: upstream.warm,
      budgets: { max_concurrency: upstream.maxConcurrency },
    };
    writeFileSync(join(dir, `${upstream.serverId}.json`), JSON.stringify(record));
  }
  return dir;
}
