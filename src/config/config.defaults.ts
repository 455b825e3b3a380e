import { defaultsOf } from './config-schema.decorators';
import { GatewayConfigSchema } from './config.schema';
import { GatewayConfig } from './gateway-config';

/** Recursively freezes a value so that nothing can change the shared defaults in place. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The configuration used when neither file, environment nor CLI says otherwise:
 * the @Default of every key of the schema. Deeply frozen: it is shared by every
 * loader call and by tests, so an accidental `cfg.http.port = 0` on it must fail
 * loudly instead of leaking into the next caller. Copy it (the loader does)
 * before changing anything.
 *
 * `config/mcp-server.yaml` spells out these same values; a test keeps them equal.
 */
export const DEFAULT_CONFIG: GatewayConfig = deepFreeze(
  defaultsOf(GatewayConfigSchema) as GatewayConfig,
);
