/**
 * Bounds on exposed tool names and on what one upstream's tool list can make
 * the gateway hold. Every refusal names the limit it hit.
 */
export const TOOL_NAMING_LIMITS = {
  /** Longest name Claude Desktop and OpenAI accept; longer names are shortened to it. */
  maxExposedNameLength: 64,
  /** Hex digits of SHA-256 appended to a shortened name. */
  shortHashLength: 8,
  /** Longest upstream tool name taken at all (MCP suggests at most 128). */
  maxUpstreamToolNameLength: 256,
  /** Tools one upstream may list; a longer list exposes none of them. */
  maxToolsPerUpstream: 10_000,
} as const;
