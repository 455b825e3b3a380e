/** Name of the bearer security scheme in the admin OpenAPI document. */
export const ADMIN_BEARER_SCHEME = 'admin-token';

/** The variable that turns the admin API on (its bearer token). */
export const ADMIN_TOKEN_ENV = 'MCP_SERVER_ADMIN_TOKEN';

/** The path every admin controller is mounted under. */
export const ADMIN_ROUTE_PREFIX = 'admin';
