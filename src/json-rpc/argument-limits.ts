import { JsonWalkLimit, measureJson } from '../common/bounded-json-size';
import { LimitsConfig } from '../config/gateway-config';

export type ArgumentLimitName = 'argument_max_keys' | 'argument_max_depth' | 'argument_max_bytes';

export type ArgumentLimits = Pick<LimitsConfig, ArgumentLimitName>;

/** The first limit an argument value passed, and its configured maximum. */
export interface ArgumentLimitBreach {
  limit: ArgumentLimitName;
  max: number;
}

const LIMIT_NAMES: Record<JsonWalkLimit, ArgumentLimitName> = {
  bytes: 'argument_max_bytes',
  keys: 'argument_max_keys',
  depth: 'argument_max_depth',
};

/**
 * Measures a JSON value (as JSON.parse made it) against the argument limits:
 * keys across all nested objects, nesting depth (the value itself is level 1)
 * and the byte size of its JSON text, stopping at the first limit passed.
 */
export function findArgumentLimitBreach(
  value: unknown,
  limits: ArgumentLimits,
): ArgumentLimitBreach | undefined {
  const { passed } = measureJson(value, {
    maxBytes: limits.argument_max_bytes,
    maxKeys: limits.argument_max_keys,
    maxDepth: limits.argument_max_depth,
  });
  if (passed === undefined) return undefined;
  const limit = LIMIT_NAMES[passed];
  return { limit, max: limits[limit] };
}
