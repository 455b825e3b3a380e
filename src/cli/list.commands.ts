import { Command } from 'commander';

/** Loaded when the command runs, so that `--help`, `--version` and other commands stay light. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const action = () => require('./list.actions') as typeof import('./list.actions');

export function registerListCommands(parent: Command): void {
  parent
    .command('tools')
    .description('Inspect tools')
    .command('list')
    .description('Print the tools the gateway serves (as tools/list returns them)')
    .option('--config <path>', 'config file')
    .action((flags: { config?: string }) => action().listTools(flags.config));
  parent
    .command('resources')
    .description('Inspect resources')
    .command('list')
    .description('Print the resources the gateway serves (as resources/list returns them)')
    .option('--config <path>', 'config file')
    .action((flags: { config?: string }) => action().listResources(flags.config));
}
