/** Named throttlers of the rate-limit guard and their windows (ms), as @nestjs/throttler counts them. */
export const MINUTE_THROTTLER = 'minute';
export const DAY_THROTTLER = 'day';
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** Prometheus metric names owned by governance. */
export const GOVERNANCE_DECISIONS_TOTAL = 'mcp_governance_decisions_total';
export const BUDGET_SPEND = 'mcp_budget_spend';

/** Response headers written on every governed call (HTTP only). */
export const HEADER_LIMIT = 'X-RateLimit-Limit';
export const HEADER_REMAINING = 'X-RateLimit-Remaining';
export const HEADER_RESET = 'X-RateLimit-Reset';
export const HEADER_BUDGET_REMAINING = 'X-Budget-Remaining';

/** Redis key parts below `state.key_prefix`. */
export const REDIS_RATE_LIMIT_PREFIX = 'rl:';
export const REDIS_SPEND_PREFIX = 'spend:';
export const REDIS_RULES_CHANNEL = 'governance:rules';

/** Seconds a client should wait before retrying when the counter store is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** Prometheus metrics read at scrape time (governance's own). */
export const REDIS_UP = 'mcp_redis_up';
export const BUDGET_USED_RATIO = 'mcp_budget_used_ratio';
