/** The trivial tool, as every benchmarked server declares it. */
export const BENCH_TOOL = {
  name: 'bench_echo',
  description: 'Echoes its text argument back (benchmark tool).',
} as const;

/** The tools/call arguments every request sends. */
export const ECHO_ARGS = { text: 'hello bench' } as const;

/** What each server must answer to that call: the arguments as a JSON text block. */
export const ECHO_RESULT_TEXT = JSON.stringify(ECHO_ARGS);
