import { Command } from 'commander';

/** Loaded when the command runs, so that `--help`, `--version` and other commands stay light. */
const action = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./config-validate.action') as typeof import('./config-validate.action');

export function registerConfigCommands(parent: Command): void {
  const config = parent.command('config').description('Inspect configuration');
  config
    .command('validate')
    .description('Validate the configuration (file, MCP_SERVER_* environment) and print a summary')
    .option(
      '--config <path>',
      'config file (default config/mcp-server.yaml, or $MCP_SERVER_CONFIG)',
    )
    .action((flags: { config?: string }) => action().validateConfig(flags));
}
