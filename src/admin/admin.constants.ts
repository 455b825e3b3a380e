/** Name of the bearer security scheme in the admin OpenAPI document. */
export const ADMIN_BEARER_SCHEME = 'admin-token';

/** Token of the list of modules whose controllers the admin OpenAPI document describes. */
export const ADMIN_API_MODULES = Symbol('ADMIN_API_MODULES');
