import { RestartBackoff } from './restart-backoff';

describe('RestartBackoff', () => {
  const policy = { baseMs: 500, maxMs: 4_000, maxFailures: 5, windowMs: 60_000 };

  it('doubles the jitter ceiling per attempt up to the maximum (full jitter)', () => {
    const backoff = new RestartBackoff(policy, () => 0.999999);
    const delays = [0, 1, 2, 3].map((i) => {
      const decision = backoff.recordFailure(i * 61_000);
      return decision.down ? -1 : decision.delayMs;
    });
    expect(delays).toEqual([499, 999, 1999, 3999]);
    const lowest = new RestartBackoff(policy, () => 0);
    expect(lowest.recordFailure(0)).toEqual({ down: false, delayMs: 0, attempt: 1 });
  });

  it('gives up after maxFailures within the window and resets the backoff on success', () => {
    const backoff = new RestartBackoff(policy, () => 0.5);
    for (let i = 0; i < 4; i++) {
      expect(backoff.recordFailure(i).down).toBe(false);
      backoff.recordSuccess();
      expect(backoff.attempts).toBe(0);
    }
    expect(backoff.recordFailure(4)).toEqual({ down: true });
    expect(backoff.retryAllowedAt()).toBe(60_004);
  });

  it('forgets failures older than the window', () => {
    const backoff = new RestartBackoff(policy, () => 0.5);
    for (let i = 0; i < 10; i++) expect(backoff.recordFailure(i * 20_000).down).toBe(false);
  });
});
