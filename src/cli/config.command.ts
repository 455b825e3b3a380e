import { Command } from 'commander';
import { ConfigValidationError } from '../config/config-validation.error';
import { loadGatewayConfigWithSource } from '../config/config.loader';
import { summarizeConfig } from '../config/config.summary';
import { printError, printLine } from './cli-output';

export function registerConfigCommands(parent: Command): void {
  const config = parent.command('config').description('Inspect configuration');
  config
    .command('validate')
    .description('Validate the configuration (file, MCP_SERVER_* environment) and print a summary')
    .option(
      '--config <path>',
      'config file (default config/mcp-server.yaml, or $MCP_SERVER_CONFIG)',
    )
    .action((flags: { config?: string }) => {
      try {
        const { config: cfg, source } = loadGatewayConfigWithSource({ configPath: flags.config });
        printLine(`Configuration is valid (${source ?? 'built-in defaults'})`);
        printLine(JSON.stringify(summarizeConfig(cfg, source), null, 2));
      } catch (err) {
        if (!(err instanceof ConfigValidationError)) throw err;
        printError(`Configuration is invalid:\n${err.message}`);
        process.exitCode = 1;
      }
    });
}
