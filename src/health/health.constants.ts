/** The longest one dependency check may take before it counts as down (every I/O check has its own). */
export const HEALTH_CHECK_TIMEOUT_MS = 1_500;

/** Upstreams GET /admin/health lists one by one; past it the list is cut and says so. */
export const ADMIN_HEALTH_MAX_LISTED_SERVERS = 200;
