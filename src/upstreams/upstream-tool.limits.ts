/** Bounds on what an upstream's tools/list may put into the gateway's own tools/list. */
export const UPSTREAM_TOOL_LIMITS = {
  /** Longer descriptions are cut with an ellipsis, so one upstream cannot swell every client's list. */
  maxDescriptionChars: 8_192,
  /** A tool whose inputSchema serializes to more than this is left out (logged): a schema cannot be cut. */
  maxInputSchemaBytes: 65_536,
  /** Servers listed at once at start-up. */
  listingConcurrency: 4,
} as const;
