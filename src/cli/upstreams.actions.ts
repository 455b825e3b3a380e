import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config';
import { GatewayLogger } from '../logging/gateway-logger';
import { probeUpstream } from '../upstreams/upstream.probe';
import { scanRegistry } from '../upstreams/registry.scanner';
import { masked } from '../upstreams/upstream-record.masking';
import { secretFilePolicy } from '../upstreams/secret-file.reader';
import { UpstreamRegistry } from '../upstreams/upstream-registry';
import { loadConfigOrExit } from './cli-config';
import { formatTable, printError, printLine } from './cli-output';
import { printDryRun } from './upstreams-dry-run';

export interface ListFlags {
  config?: string;
  json?: boolean;
}

export interface ValidateFlags {
  config?: string;
  dir?: string;
  dryRun?: boolean;
  url?: string;
}

export interface TestFlags {
  config?: string;
  timeout?: string;
}

/** `upstreams list`: the registry as the gateway would load it (secrets masked). */
export function listUpstreams(flags: ListFlags): void {
  const config = loadConfigOrExit(flags.config);
  const registry = scan(config, config.upstreams.registry_dir);
  if (flags.json) {
    printLine(JSON.stringify({ ...registry, servers: registry.servers.map(masked) }, null, 2));
    return;
  }
  const loadedRows = registry.servers.map((server) => [
    server.server_id,
    server.transport,
    server.tool_namespace,
    String(server.allowed_tools.length),
    server.required ? 'yes' : 'no',
    server.file,
    'loaded',
  ]);
  const rejectedRows = registry.rejected.map((rejected) => [
    rejected.serverId ?? '-',
    '-',
    '-',
    '-',
    '-',
    rejected.file,
    `rejected: ${rejected.reason}`,
  ]);
  printLine(
    formatTable(
      ['SERVER', 'TRANSPORT', 'NAMESPACE', 'ALLOWED', 'REQUIRED', 'FILE', 'STATUS'],
      [...loadedRows, ...rejectedRows],
      100,
    ),
  );
  for (const warning of registry.warnings) printLine(`warning: ${warning}`);
  printLine(summary(registry));
}

/** `upstreams validate`: every registry file checked; `--dry-run` adds what would change. */
export async function validateUpstreams(flags: ValidateFlags): Promise<void> {
  const config = loadConfigOrExit(flags.config);
  const dir = flags.dir === undefined ? config.upstreams.registry_dir : path.resolve(flags.dir);
  // A directory named on the command line was meant to exist; the configured one may be absent.
  if (flags.dir !== undefined && !fs.existsSync(dir)) {
    printError(`${dir}: does not exist`);
    process.exitCode = 1;
    return;
  }
  if (!fs.existsSync(dir)) printLine(`No registry directory at ${dir}: no upstreams.`);
  const registry = scan(config, dir);
  for (const rejected of registry.rejected) {
    for (const problem of rejected.problems) printError(`${rejected.file}: ${problem}`);
  }
  for (const warning of registry.warnings) printError(`warning: ${warning}`);
  printLine(summary(registry));
  if (registry.rejected.length > 0) process.exitCode = 1;
  if (!flags.dryRun) return;
  const configured = () => scan(config, config.upstreams.registry_dir);
  // Exit 2: the files may be fine, but the comparison could not be made.
  if (!(await printDryRun(config, registry, configured, flags.url))) process.exitCode = 2;
}

/** `upstreams test <id>`: one upstream connected as the gateway would, its tools summarised. */
export async function testUpstream(serverId: string, flags: TestFlags): Promise<void> {
  const config = loadConfigOrExit(flags.config);
  const timeout = Number(flags.timeout);
  if (!Number.isInteger(timeout) || timeout < 100 || timeout > 600_000) {
    printError('--timeout: must be an integer from 100 to 600000 (milliseconds)');
    process.exitCode = 1;
    return;
  }
  // Connection logs go to stderr, as the gateway's would; stdout is the summary.
  Logger.overrideLogger(new GatewayLogger({ level: 'warn', format: config.logging.format }));
  const registry = scan(config, config.upstreams.registry_dir);
  const record = registry.servers.find((server) => server.server_id === serverId);
  if (!record) {
    const rejected = registry.rejected.find((file) => file.serverId === serverId);
    printError(
      rejected
        ? `${serverId}: not loaded: ${rejected.file}: ${rejected.reason}`
        : `${serverId}: no such server in ${registry.dir}`,
    );
    process.exitCode = 1;
    return;
  }
  const result = await probeUpstream(record, timeout);
  if (!result.ok) {
    printError(`${serverId}: failed after ${result.duration_ms} ms: ${result.error}`);
    process.exitCode = 1;
    return;
  }
  printLine(
    `${serverId}: answered in ${result.duration_ms} ms; ${result.tools} tool(s), ${result.allowed} exposed by allowed_tools/denied_tools`,
  );
  const names = result.tool_names ?? [];
  printLine(
    formatTable(
      ['TOOL', 'EXPOSED'],
      names.map((t) => [t.name, t.exposed ? 'yes' : 'no']),
    ),
  );
  if (names.length < (result.tools ?? 0)) printLine(`(first ${names.length} shown)`);
}

function scan(config: GatewayConfig, dir: string): UpstreamRegistry {
  return scanRegistry(dir, process.env, {
    strict: config.upstreams.strict,
    secretFiles: secretFilePolicy(dir, config.upstreams),
  });
}

function summary(registry: UpstreamRegistry): string {
  return (
    `${registry.servers.length} server(s) loaded, ${registry.rejected.length} rejected, ` +
    `${registry.warnings.length} warning(s); revision ${registry.revision} (${registry.dir})`
  );
}
