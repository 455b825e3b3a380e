/**
 * Injection token for the validated GatewayConfig. A symbol (not the interface
 * name) because interfaces vanish at runtime and a string could collide.
 */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

/**
 * Injection token for the absolute path of the config file the gateway was
 * started from (undefined when it runs on defaults and environment only).
 * Governance watches it to reload its rules without a restart.
 */
export const GATEWAY_CONFIG_SOURCE = Symbol('GATEWAY_CONFIG_SOURCE');

/** An `auth.api_keys` entry, `<client_id>:<sha256 hex of the key>` (here so the CLI checks one without loading the schema). */
export const API_KEY_ENTRY = /^[A-Za-z0-9._:@/-]{1,128}:[0-9a-f]{64}$/;
