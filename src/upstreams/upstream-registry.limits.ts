/**
 * Bounds on what the registry directory can make the gateway read and hold.
 * Every refusal names the limit, so an operator knows which file to split or trim.
 */
export const REGISTRY_LIMITS = {
  /** Registry files (by extension, hidden and temp files not counted) in the directory. */
  maxFiles: 1000,
  /** Size of one registry file, and of a secret file named by `auth_ref: file:...`. */
  maxFileBytes: 64 * 1024,
  /** Items of `stdio.args`, `stdio.env_from`, `allowed_tools`, `denied_tools`. */
  maxListItems: 256,
  /** Entries of `stdio.env`, `approval_policy.tools`, `cost.tools`. */
  maxMapEntries: 256,
  /** Entries of `http.headers`. */
  maxHeaders: 64,
  /** A command, an argument, a path, a URL. */
  maxPathLength: 4096,
  /** A value of `stdio.env` or `http.headers`, before and after references are resolved. */
  maxValueLength: 8192,
  /** A tool pattern, an env variable name, a header name. */
  maxNameLength: 256,
  /** `display_name`. */
  maxDisplayNameLength: 128,
} as const;

/** Bounds and defaults of `budgets`. */
export const BUDGET_BOUNDS = {
  toolTimeoutMs: { min: 100, max: 3_600_000, default: 60_000 },
  maxConcurrency: { min: 1, max: 256, default: 8 },
  maxToolOutputBytes: { min: 1024, max: 16 * 1024 * 1024, default: 1024 * 1024 },
} as const;

/** Bounds and default of `idle_timeout_seconds` (0 keeps an idle child forever). */
export const IDLE_TIMEOUT_BOUNDS = { min: 0, max: 86_400, default: 0 } as const;

/** The largest cost one call may declare (the budget's max_cost_per_call caps it further). */
export const MAX_CALL_COST = 1_000_000;
