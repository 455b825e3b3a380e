import {
  DeepPartial,
  loadGatewayConfigWithSource,
  LoadedGatewayConfig,
} from '../config/config.loader';
import { GatewayConfig, LogLevel, TransportKind } from '../config/gateway-config';

export interface StartFlags {
  config?: string;
  transport?: string;
  host?: string;
  port?: string;
  skillsDir?: string;
  logLevel?: string;
  dev?: boolean;
}

/** CLI flags are the top layer of configuration (defaults < file < env < flags). */
export function loadWithFlags(flags: StartFlags): LoadedGatewayConfig {
  const overrides: DeepPartial<GatewayConfig> = {
    transport: flags.transport as TransportKind | undefined,
    dev_mode: flags.dev,
    http: {
      host: flags.host,
      // Left as given when not numeric so that validation names the bad value.
      port: flags.port === undefined ? undefined : (toNumber(flags.port) as number),
    },
    resources: { skills_dir: flags.skillsDir },
    logging: { level: flags.logLevel as LogLevel | undefined },
  };
  return loadGatewayConfigWithSource({ configPath: flags.config, overrides });
}

function toNumber(value: string): number | string {
  const parsed = Number(value);
  return value.trim() !== '' && Number.isFinite(parsed) ? parsed : value;
}
