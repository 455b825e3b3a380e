/** Key under a tool result's `_meta` saying what the output limit cut (prefixed, as the MCP spec asks). */
export const META_OUTPUT_TRUNCATED = 'owlclaw/outputTruncated';

/** Longest wait for an upstream's `initialize`; separate from tool timeouts because `npx` may download first. */
export const CONNECT_TIMEOUT_MS = 30_000;

/** `maxTotalTimeout` of a call is this many tool timeouts, so progress cannot keep a call alive forever. */
export const TOTAL_TIMEOUT_FACTOR = 10;

/** ...and never more than one hour, the largest `tool_timeout_ms` the registry accepts. */
export const MAX_TOTAL_TIMEOUT_MS = 3_600_000;

/** Bounds of one tools/list walk, so a misbehaving upstream cannot page forever. */
export const MAX_UPSTREAM_TOOLS = 1_000;
export const MAX_TOOL_LIST_PAGES = 100;

/** Longest stderr line of a stdio child that reaches the log; the rest of the line is dropped. */
export const MAX_STDERR_LINE_CHARS = 1_024;

/** How long close() waits for a stdio child the SDK has already sent SIGKILL to. */
export const CHILD_EXIT_WAIT_MS = 1_000;

/** The longest a probe may take, connect and tools/list together. */
export const PROBE_TIMEOUT_MS = 20_000;
