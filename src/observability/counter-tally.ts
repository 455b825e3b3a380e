import { Inject, Provider } from '@nestjs/common';
import { makeCounterProvider } from '@willsoto/nestjs-prometheus';
import { Counter, CounterConfiguration, LabelValues } from 'prom-client';

/** One label set of a tallied counter: what a call increments. */
export interface TallySeries {
  inc(by?: number): void;
}

class PendingSeries<L extends string> implements TallySeries {
  pending = 0;
  /** Incremented since the last flush, if only by 0: prom-client shows such a series too. */
  touched = false;

  constructor(readonly labels: LabelValues<L>) {}

  /**
   * Counts only: whole numbers, whose sums (below 2^53) are exact however
   * they are grouped, so summing them here first leaves the counter with the
   * value prom-client's own additions would give it. Fractions would not
   * (floating-point addition is not associative: 5.684341886080803e-14,
   * then 89, then 423 make 512; 5.684341886080803e-14, then 512, make
   * 512.0000000000001; the property test found it). Refused where the
   * caller is, not at the next scrape, as prom-client refuses a negative
   * increment.
   */
  inc(by = 1): void {
    if (!Number.isSafeInteger(by) || by < 0) {
      throw new TypeError(`A tallied count grows by a whole number of at least 0, not ${by}`);
    }
    this.pending += by;
    this.touched = true;
  }
}

/**
 * Increments of a prom-client counter of counts (whole numbers), summed
 * per label set in plain numbers and added to the counter when the
 * registry reads it (the counter's collect hook, which prom-client runs
 * before every read).
 *
 * prom-client's own inc() validates the labels, builds a label string and
 * looks it up on every call; for the counters every call increments (about
 * three per tools/call) that was ~5 % of the stdio gateway's main thread
 * (callgrind). Here a call adds to a number in a series its caller looked up
 * once. What a scrape sees is the same: the collect hook runs first.
 */
export class CounterTally<L extends string = string> {
  private readonly series = new Map<string, PendingSeries<L>>();

  /** The series of these label values (made on first use); callers keep it for their calls. */
  seriesFor(labels: LabelValues<L>): TallySeries {
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
    let series = this.series.get(key);
    if (!series) {
      series = new PendingSeries<L>({ ...labels });
      this.series.set(key, series);
    }
    return series;
  }

  /** Adds what is pending to `counter` (its collect hook). */
  flushInto(counter: Counter<L>): void {
    for (const series of this.series.values()) {
      if (!series.touched) continue;
      counter.inc(series.labels, series.pending);
      series.pending = 0;
      series.touched = false;
    }
  }
}

/**
 * The series of a counter with two labels, found by their values without
 * building a key string: two map lookups by strings the caller already holds
 * (their hashes are cached). Bounded by the counter's own label values.
 */
export class SeriesByTwoLabels<A extends string, B extends string> {
  private readonly byFirst = new Map<string, Map<string, TallySeries>>();

  constructor(
    private readonly tally: CounterTally<A | B>,
    private readonly first: A,
    private readonly second: B,
  ) {}

  get(first: string, second: string): TallySeries {
    let bySecond = this.byFirst.get(first);
    if (!bySecond) {
      bySecond = new Map();
      this.byFirst.set(first, bySecond);
    }
    let series = bySecond.get(second);
    if (!series) {
      series = this.tally.seriesFor({ [this.first]: first, [this.second]: second } as LabelValues<
        A | B
      >);
      bySecond.set(second, series);
    }
    return series;
  }
}

/**
 * One tally per counter name in the process, as prom-client's default
 * registry holds one counter per name: an application created again in the
 * same process (tests do) gets the counter that exists, whose collect hook
 * flushes this same tally.
 */
const tallies = new Map<string, CounterTally>();

function tallyFor(name: string): CounterTally {
  let tally = tallies.get(name);
  if (!tally) {
    tally = new CounterTally();
    tallies.set(name, tally);
  }
  return tally;
}

function tallyToken(name: string): string {
  return `COUNTER_TALLY_${name}`;
}

/** Injects the tally of the counter named `name` (see makeTalliedCounterProviders). */
export const InjectCounterTally = (name: string): PropertyDecorator & ParameterDecorator =>
  Inject(tallyToken(name));

/**
 * The counter (registered in the default registry, as makeCounterProvider
 * does) and its tally, which callers increment instead of the counter.
 */
export function makeTalliedCounterProviders(
  config: Omit<CounterConfiguration<string>, 'collect'>,
): Provider[] {
  const token = tallyToken(config.name);
  return [
    { provide: token, useFactory: () => tallyFor(config.name) },
    makeCounterProvider({
      ...config,
      inject: [token],
      collect(this: Counter<string>, tally: CounterTally) {
        tally.flushInto(this);
      },
    }),
  ];
}
