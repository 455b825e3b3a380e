import { NotificationRateLimiter } from './notification-rate.limiter';

describe('NotificationRateLimiter', () => {
  it('lets through at most the limit in any sliding minute', () => {
    const limiter = new NotificationRateLimiter(3);
    expect([0, 1_000, 2_000, 3_000].map((now) => limiter.tryTake(now))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    // The first slot frees a minute after it was taken, not at a minute boundary.
    expect(limiter.tryTake(59_999)).toBe(false);
    expect(limiter.tryTake(60_000)).toBe(true);
    expect(limiter.tryTake(60_500)).toBe(false);
    expect(limiter.tryTake(61_000)).toBe(true);
  });

  it('does not count refused attempts against the limit', () => {
    const limiter = new NotificationRateLimiter(1);
    expect(limiter.tryTake(0)).toBe(true);
    for (let now = 1; now < 60_000; now += 1_000) expect(limiter.tryTake(now)).toBe(false);
    expect(limiter.tryTake(60_000)).toBe(true);
  });
});
