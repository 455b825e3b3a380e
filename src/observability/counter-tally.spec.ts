import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import fc from 'fast-check';
import { Counter, register, Registry } from 'prom-client';
import {
  CounterTally,
  InjectCounterTally,
  makeTalliedCounterProviders,
  SeriesByTwoLabels,
} from './counter-tally';

type Label = 'tool' | 'outcome';

/** A tallied counter and a plain one, each in a registry of its own, under the same name. */
function pair() {
  const tally = new CounterTally<Label>();
  const tallied = new Registry();
  const plain = new Registry();
  const config = { name: 'calls_total', help: 'calls', labelNames: ['tool', 'outcome'] as Label[] };
  new Counter<Label>({
    ...config,
    registers: [tallied],
    collect() {
      tally.flushInto(this);
    },
  });
  const counter = new Counter<Label>({ ...config, registers: [plain] });
  return { tally, tallied, plain, counter };
}

describe('CounterTally', () => {
  it('gives a scrape the same text as incrementing the counter itself, reads in between included', async () => {
    const step = fc.record({
      tool: fc.constantFrom('orders_get', 'stock_check', '(unknown)'),
      outcome: fc.constantFrom('success', 'error', 'denied'),
      by: fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 1_000 })),
      readAfter: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const { tally, tallied, plain, counter } = pair();
        const series = new SeriesByTwoLabels(tally, 'tool', 'outcome');
        for (const { tool, outcome, by, readAfter } of steps) {
          series.get(tool, outcome).inc(by);
          counter.inc({ tool, outcome }, by);
          if (readAfter) expect(await tallied.metrics()).toBe(await plain.metrics());
        }
        expect(await tallied.metrics()).toBe(await plain.metrics());
      }),
      { numRuns: 300 },
    );
  });

  it('hands out one series per label set, whatever the order of the labels', () => {
    const tally = new CounterTally<Label>();
    const series = new SeriesByTwoLabels(tally, 'tool', 'outcome');
    expect(series.get('a', 'success')).toBe(series.get('a', 'success'));
    expect(series.get('a', 'success')).toBe(tally.seriesFor({ outcome: 'success', tool: 'a' }));
    expect(series.get('a', 'success')).not.toBe(series.get('a', 'error'));
  });

  it('refuses a negative, fractional or non-finite increment where it is made', () => {
    const series = new CounterTally<Label>().seriesFor({ tool: 'a', outcome: 'success' });
    for (const by of [-1, 0.5, 5.684341886080803e-14, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => series.inc(by)).toThrow(/whole number of at least 0/);
    }
  });
});

describe('makeTalliedCounterProviders', () => {
  const NAME = 'owlclaw_test_tallied_total';

  @Injectable()
  class Calls {
    private readonly series: SeriesByTwoLabels<Label, Label>;

    constructor(@InjectCounterTally(NAME) tally: CounterTally<Label>) {
      this.series = new SeriesByTwoLabels(tally, 'tool', 'outcome');
    }

    count(tool: string): void {
      this.series.get(tool, 'success').inc();
    }
  }

  @Module({
    providers: [
      ...makeTalliedCounterProviders({ name: NAME, help: 'test', labelNames: ['tool', 'outcome'] }),
      Calls,
    ],
  })
  class CallsModule {}

  const valueOf = async (tool: string) =>
    (await register.getSingleMetric(NAME)?.get())?.values.find((v) => v.labels.tool === tool)
      ?.value;

  afterAll(() => register.removeSingleMetric(NAME));

  it('counts into the default registry, also for an application created again in the process', async () => {
    for (const expected of [2, 5]) {
      const app = await Test.createTestingModule({ imports: [CallsModule] }).compile();
      const calls = app.get(Calls);
      // The second application meets the counter the first one registered.
      for (let i = expected === 2 ? 0 : 2; i < expected; i++) calls.count('orders_get');
      expect(await valueOf('orders_get')).toBe(expected);
      await app.close();
    }
  });
});
