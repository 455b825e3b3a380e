import { ConfigValidationError } from '../config/config-validation.error';
import { loadGatewayConfigWithSource } from '../config/config.loader';
import { GatewayConfig } from '../config/gateway-config';
import { printError } from './cli-output';

/** The configuration a CLI command works on; an invalid one is printed and the command exits 1. */
export function loadConfigOrExit(configPath?: string): GatewayConfig {
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
