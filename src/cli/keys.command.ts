import { Command } from 'commander';

/** Loaded when the command runs, so that `--help`, `--version` and other commands stay light. */
const action = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./keys-create.action') as typeof import('./keys-create.action');

/** `keys create [--client <id>]`: a new API key and its `auth.api_keys` entry. */
export function registerKeysCommands(parent: Command): void {
  parent
    .command('keys')
    .description('Make API keys')
    .command('create')
    .description(
      'Print a new random API key and the auth.api_keys entry (its SHA-256) that gives it to a client',
    )
    .option('--client <id>', 'the client id the key belongs to')
    .action((flags: { client?: string }) => action().createKey(flags));
}
