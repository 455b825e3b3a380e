import { ConfigValidationError } from '../config/config-validation.error';
import { loadGatewayConfigWithSource } from '../config/config.loader';
import { summarizeConfig } from '../config/config.summary';
import { printError, printLine } from './cli-output';

/** `mcp-server config validate`: the configuration as the gateway would load it, or why it would not. */
export function validateConfig(flags: { config?: string }): void {
  try {
    const { config: cfg, source } = loadGatewayConfigWithSource({ configPath: flags.config });
    printLine(`Configuration is valid (${source ?? 'built-in defaults'})`);
    printLine(JSON.stringify(summarizeConfig(cfg, source), null, 2));
  } catch (err) {
    if (!(err instanceof ConfigValidationError)) throw err;
    printError(`Configuration is invalid:\n${err.message}`);
    process.exitCode = 1;
  }
}
