/**
 * Injection token for the validated GatewayConfig. A symbol (not the interface
 * name) because interfaces vanish at runtime and a string could collide.
 */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
