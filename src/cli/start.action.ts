import { runStdioGateway } from '../bootstrap/stdio.bootstrap';
import { createHttpGateway, listenHttpGateway } from '../bootstrap/http.bootstrap';
import { ConfigValidationError } from '../config/config-validation.error';
import { summarizeConfig } from '../config/config.summary';
import { GatewayLogger } from '../logging/gateway-logger';
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { EXIT_BAD_CONFIG } from './cli.constants';
import { loadWithFlags, StartFlags } from './config-options';
import { printError } from './cli-output';

/** `mcp-server start`: validates the configuration, then serves stdio or HTTP until stopped. */
export async function start(flags: StartFlags): Promise<void> {
  let loaded;
  try {
    loaded = loadWithFlags(flags);
  } catch (err) {
    if (!(err instanceof ConfigValidationError)) throw err;
    printError(`owlclaw: invalid configuration\n${err.message}`);
    process.exit(EXIT_BAD_CONFIG);
  }
  const { config, source, ignoredEnvVars } = loaded;
  const logger = new GatewayLogger(config.logging);
  logger.log(
    {
      msg: 'starting OwlClaw MCP gateway',
      version: GATEWAY_VERSION,
      config: summarizeConfig(config, source),
      // The V8 flags the process was started with (README, Dockerfile): they shape its heap.
      nodeFlags: process.execArgv,
    },
    'Bootstrap',
  );
  if (ignoredEnvVars.length > 0) {
    logger.warn(
      { msg: 'unknown MCP_SERVER_* variables ignored', variables: ignoredEnvVars },
      'Bootstrap',
    );
  }
  if (config.transport === 'stdio') {
    await runStdioGateway({ config, configSource: source, logger });
    process.exit(0);
  }
  const app = await createHttpGateway({ config, configSource: source, logger });
  const address = await listenHttpGateway(app, config);
  const scheme = config.http.tls.enabled ? 'https' : 'http';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  logger.log(
    { msg: 'listening', url: `${scheme}://${host}:${address.port}/mcp`, port: address.port },
    'Bootstrap',
  );
}
