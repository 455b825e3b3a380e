/** Bounds on what an upstream's prompts and resources may put into the gateway's own lists. */
export const UPSTREAM_LIST_RELAY_LIMITS = {
  /** Prompts or resources taken from one server; the rest are left out (logged). */
  maxEntriesPerServer: 1_000,
  /** Pages of one prompts/list or resources/list walk, so a misbehaving upstream cannot page forever. */
  maxListPages: 100,
  /** Longer descriptions are cut with an ellipsis, as for tools. */
  maxDescriptionChars: 8_192,
  /** Names and titles longer than this leave their entry out: they are identifiers, not prose. */
  maxNameChars: 1_024,
  /** Arguments one relayed prompt may declare. */
  maxPromptArguments: 64,
  /** Longest original resource URI relayed (the gateway URI carries it encoded). */
  maxUriChars: 2_048,
} as const;
