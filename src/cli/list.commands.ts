import { Command } from 'commander';
import { ConfigValidationError } from '../config/config-validation.error';
import { loadGatewayConfigWithSource } from '../config/config.loader';
import { formatTable, printError, printLine } from './cli-output';
import { listThroughGateway } from './registry-listing';

interface ListedTool {
  name: string;
  description?: string;
  _meta?: Record<string, unknown>;
}

interface ListedResource {
  uri: string;
  name?: string;
  description?: string;
  size?: number;
}

export function registerListCommands(parent: Command): void {
  parent
    .command('tools')
    .description('Inspect tools')
    .command('list')
    .description('Print the tools the gateway serves (as tools/list returns them)')
    .option('--config <path>', 'config file')
    .action((flags: { config?: string }) => listTools(flags.config));
  parent
    .command('resources')
    .description('Inspect resources')
    .command('list')
    .description('Print the resources the gateway serves (as resources/list returns them)')
    .option('--config <path>', 'config file')
    .action((flags: { config?: string }) => listResources(flags.config));
}

async function listTools(configPath?: string): Promise<void> {
  const outcome = await listThroughGateway<ListedTool>(
    loadConfig(configPath),
    'tools/list',
    'tools',
  );
  if (outcome.kind === 'unsupported')
    return printLine('No tools: this gateway build serves no tools/list yet.');
  printLine(
    formatTable(
      ['NAME', 'DESCRIPTION', 'COST', 'LIMITS'],
      outcome.items.map((tool) => [
        tool.name,
        tool.description ?? '',
        JSON.stringify(tool._meta?.estimatedCost ?? '-'),
        tool._meta?.rateLimits === undefined ? '-' : JSON.stringify(tool._meta.rateLimits),
      ]),
    ),
  );
  printLine(`${outcome.items.length} tool(s)`);
}

async function listResources(configPath?: string): Promise<void> {
  const outcome = await listThroughGateway<ListedResource>(
    loadConfig(configPath),
    'resources/list',
    'resources',
  );
  if (outcome.kind === 'unsupported') {
    return printLine('No resources: this gateway build serves no resources/list yet.');
  }
  printLine(
    formatTable(
      ['URI', 'NAME', 'DESCRIPTION', 'SIZE'],
      outcome.items.map((r) => [r.uri, r.name ?? '', r.description ?? '', String(r.size ?? '-')]),
    ),
  );
  printLine(`${outcome.items.length} resource(s)`);
}

function loadConfig(configPath?: string) {
  try {
    return loadGatewayConfigWithSource({ configPath }).config;
  } catch (err) {
    if (err instanceof ConfigValidationError) {
      printError(`Configuration is invalid:\n${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}
