import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamProgressRelay } from './upstream-progress.relay';

describe('UpstreamProgressRelay', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the first report at once and folds a burst into one report per gap', () => {
    const sent: Progress[] = [];
    const relay = new UpstreamProgressRelay((progress) => sent.push(progress), 100);
    for (let step = 1; step <= 50_000; step++) relay.report({ progress: step, total: 50_000 });
    expect(sent).toEqual([{ progress: 1, total: 50_000 }]);
    jest.advanceTimersByTime(100);
    expect(sent).toEqual([
      { progress: 1, total: 50_000 },
      { progress: 50_000, total: 50_000 },
    ]);
    jest.advanceTimersByTime(1_000);
    expect(sent).toHaveLength(2);
  });

  it('delivers the last value on flush, before its gap is over', () => {
    const sent: number[] = [];
    const relay = new UpstreamProgressRelay(({ progress }) => sent.push(progress), 60_000);
    for (let step = 1; step <= 1_000; step++) relay.report({ progress: step });
    relay.flush();
    expect(sent).toEqual([1, 1_000]);
    jest.advanceTimersByTime(60_000);
    expect(sent).toEqual([1, 1_000]);
  });

  it('drops what waits when stopped', () => {
    const sent: number[] = [];
    const relay = new UpstreamProgressRelay(({ progress }) => sent.push(progress), 100);
    relay.report({ progress: 1 });
    relay.report({ progress: 2 });
    relay.stop();
    jest.advanceTimersByTime(1_000);
    expect(sent).toEqual([1]);
  });
});
