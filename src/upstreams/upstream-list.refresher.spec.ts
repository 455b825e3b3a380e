import { UpstreamListRefresher } from './upstream-list.refresher';

describe('UpstreamListRefresher', () => {
  it('runs one listing at a time per server and folds every request made meanwhile into one more', async () => {
    let listings = 0;
    let release!: () => void;
    const refresher = new UpstreamListRefresher(
      async () => {
        listings++;
        await new Promise<void>((resolve) => (release = resolve));
        return true;
      },
      { ok: 60_000, failed: 60_000 },
    );
    const first = refresher.request('a');
    const followers = Array.from({ length: 1_000 }, () => refresher.request('a'));
    expect(listings).toBe(1);
    release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(listings).toBe(2);
    release();
    await Promise.all(followers);
    expect(listings).toBe(2);
    refresher.stop();
  });

  it('relists when the entry expires, after the failure TTL when the listing failed', async () => {
    jest.useFakeTimers();
    try {
      const outcomes = [false, true];
      const calls: number[] = [];
      const refresher = new UpstreamListRefresher(
        () => {
          calls.push(Date.now());
          return Promise.resolve(outcomes.shift() ?? true);
        },
        { ok: 300_000, failed: 10_000 },
      );
      await refresher.request('a');
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(10_000);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(299_000);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(calls).toHaveLength(3);
      refresher.stop();
      await jest.advanceTimersByTimeAsync(600_000);
      expect(calls).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
