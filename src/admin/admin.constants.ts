/** Name of the bearer security scheme in the admin OpenAPI document. */
export const ADMIN_BEARER_SCHEME = 'admin-token';
