export const TOOLS_PAGE_SIZE = 100;

/** Keys of governance hints under a tool's `_meta` (prefixed, as the MCP spec asks of custom keys). */
export const META_ESTIMATED_COST = 'owlclaw/estimatedCost';
export const META_RATE_LIMITS = 'owlclaw/rateLimits';
export const META_TIMEOUT_SECONDS = 'owlclaw/timeoutSeconds';
export const META_MAX_DURATION_SECONDS = 'owlclaw/maxDurationSeconds';

/** Token of the optional source of SKILL.md bodies linked from handlers (the resources catalog). */
export const SKILL_TEXT_SOURCE = Symbol('SKILL_TEXT_SOURCE');
