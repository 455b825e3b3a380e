import { DeepPartial, loadGatewayConfig } from '../config.loader';
import { GatewayConfig } from '../gateway-config';

/**
 * Config as the loader makes it for a unit spec: the defaults, then
 * `overrides`, validated like a file; no file and no environment are read,
 * so the machine running the spec cannot change it.
 */
export function specConfig(overrides: DeepPartial<GatewayConfig> = {}): GatewayConfig {
  return loadGatewayConfig({ env: {}, cwd: __dirname, overrides });
}
