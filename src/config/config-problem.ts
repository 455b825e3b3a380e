/** The one top-level key of a config file; key paths in messages start with it. */
export const FILE_ROOT_KEY = 'mcp_server';

/** One problem with the configuration; every one found is reported at once. */
export interface Problem {
  /** What the problem is about: a dotted key (`mcp_server.http.port`) or a file. */
  subject: string;
  message: string;
  /** Where the offending value came from, when known. */
  origin?: string;
}

export function render(problem: Problem): string {
  const from = problem.origin ? ` (from ${problem.origin})` : '';
  return `${problem.subject}: ${problem.message}${from}`;
}

export function keyLabel(keyPath: readonly string[]): string {
  return [FILE_ROOT_KEY, ...keyPath].join('.');
}
