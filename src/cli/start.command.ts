import { Command, Option } from 'commander';
import type { StartFlags } from './config-options';

/** Loaded when the command runs, so that `--help`, `--version` and other commands stay light. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const action = () => require('./start.action') as typeof import('./start.action');

export function registerStartCommand(parent: Command): void {
  parent
    .command('start')
    .description('Start the gateway (stdio by default, as IDEs and Claude Desktop expect)')
    .addOption(
      new Option('--transport <kind>', 'stdio | http (default: config, else stdio)').choices([
        'stdio',
        'http',
      ]),
    )
    .option('--host <host>', 'HTTP bind address (default 127.0.0.1)')
    .option('--port <port>', 'HTTP port (default 8080)')
    .option(
      '--config <path>',
      'config file (default config/mcp-server.yaml, or $MCP_SERVER_CONFIG)',
    )
    .option('--skills-dir <path>', 'skills directory (default: the bundled capabilities/)')
    .option('--log-level <level>', 'debug | info | warn | error')
    .option('--dev', 'development mode: stack traces in error data')
    .action((flags: StartFlags) => action().start(flags));
}
