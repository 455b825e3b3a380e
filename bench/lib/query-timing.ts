import { QueryTiming } from '../report/results';
import { median, timed } from './stats';

/** Repeats of one query stop adding up beyond this (a multi-second query runs once more, not 20 times). */
const REPEAT_BUDGET_MS = 15_000;

export interface TimedQuery {
  label: string;
  /** Repeats after the first run (fewer when the query is slow, at least one). */
  repeats: number;
  targeted: boolean;
  /** Runs the query once; returns a short description of the answer. */
  run: () => Promise<string>;
}

/** The first (cold) run and the median of the repeats. */
export async function timeQuery(query: TimedQuery): Promise<QueryTiming> {
  const first = await timed(query.run);
  const repeats = Math.max(1, Math.min(query.repeats, Math.floor(REPEAT_BUDGET_MS / first.ms)));
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) times.push((await timed(query.run)).ms);
  return {
    label: query.label,
    firstMs: first.ms,
    medianMs: median(times),
    repeats,
    detail: first.value,
    targeted: query.targeted,
  };
}
