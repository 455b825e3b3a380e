/** The trivial tool, as every benchmarked server declares it. */
export const BENCH_TOOL = {
  name: 'bench_echo',
  description: 'Echoes its text argument back (benchmark tool).',
} as const;

/** The same echo with a declared cost, so a governed gateway reserves and settles budget for it. */
export const PRICED_BENCH_TOOL = {
  name: 'bench_priced_echo',
  description: 'Echoes its text argument back at a declared cost (benchmark tool).',
  estimatedCost: 0.001,
} as const;

/** Every tool the benchmarked servers serve, in the order they list them. */
export const BENCH_TOOLS = [BENCH_TOOL, PRICED_BENCH_TOOL] as const;

/** The tools/call arguments every request sends. */
export const ECHO_ARGS = { text: 'hello bench' } as const;

/** What each server must answer to that call: the arguments as a JSON text block. */
export const ECHO_RESULT_TEXT = JSON.stringify(ECHO_ARGS);
