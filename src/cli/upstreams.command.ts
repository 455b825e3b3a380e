import { Command } from 'commander';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GatewayConfig } from '../config/gateway-config';
import { scanRegistry } from '../upstreams/registry.scanner';
import { masked } from '../upstreams/upstream-record.masking';
import { UpstreamRegistry } from '../upstreams/upstream-registry';
import { loadConfigOrExit } from './cli-config';
import { formatTable, printError, printLine } from './cli-output';

interface ListFlags {
  config?: string;
  json?: boolean;
}

interface ValidateFlags {
  config?: string;
  dir?: string;
}

/** `upstreams list | validate`: the registry as the gateway would load it, without starting it. */
export function registerUpstreamsCommands(parent: Command): void {
  const upstreams = parent
    .command('upstreams')
    .description('Inspect the registry of upstream MCP servers (upstreams.registry_dir)');
  upstreams
    .command('list')
    .description('Print the upstream servers the registry loads, and the files it rejects')
    .option('--config <path>', 'config file')
    .option('--json', 'print the registry as JSON (secrets masked)')
    .action((flags: ListFlags) => listUpstreams(flags));
  upstreams
    .command('validate')
    .description('Check every registry file; exit 1 if any does not load')
    .option('--config <path>', 'config file')
    .option('--dir <path>', 'registry directory to check instead of upstreams.registry_dir')
    .action((flags: ValidateFlags) => validateUpstreams(flags));
}

function listUpstreams(flags: ListFlags): void {
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

function validateUpstreams(flags: ValidateFlags): void {
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
}

function scan(config: GatewayConfig, dir: string): UpstreamRegistry {
  return scanRegistry(dir, process.env, { strict: config.upstreams.strict });
}

function summary(registry: UpstreamRegistry): string {
  return (
    `${registry.servers.length} server(s) loaded, ${registry.rejected.length} rejected, ` +
    `${registry.warnings.length} warning(s); revision ${registry.revision} (${registry.dir})`
  );
}
