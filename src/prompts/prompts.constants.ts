export const PROMPTS_PAGE_SIZE = 50;

/** The MCP limit on `completion.values` in one answer. */
export const MAX_COMPLETION_VALUES = 100;
