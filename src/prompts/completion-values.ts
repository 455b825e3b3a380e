import { MAX_COMPLETION_VALUES } from './prompts.constants';

/** The `completion` object of a `completion/complete` answer. */
export interface CompletionValues {
  values: string[];
  /** Every match, including those beyond the values sent. */
  total: number;
  hasMore: boolean;
}

/**
 * Keeps the candidates that start with `prefix` (case-insensitive), each once
 * and in the order given, and sends at most 100 of them.
 */
export function completionValues(candidates: Iterable<string>, prefix: string): CompletionValues {
  const wanted = prefix.toLowerCase();
  const matches = [...new Set(candidates)].filter((candidate) =>
    candidate.toLowerCase().startsWith(wanted),
  );
  return {
    values: matches.slice(0, MAX_COMPLETION_VALUES),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETION_VALUES,
  };
}
