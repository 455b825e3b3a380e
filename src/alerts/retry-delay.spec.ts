import { retryDelayMs } from './retry-delay';

describe('retryDelayMs', () => {
  it('doubles its ceiling per retry up to the cap, taking between half of it and all of it', () => {
    const low = (attempt: number) => retryDelayMs(attempt, 500, 4_000, () => 0);
    const high = (attempt: number) => retryDelayMs(attempt, 500, 4_000, () => 1);
    expect([1, 2, 3, 4, 5, 10].map(low)).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000]);
    expect([1, 2, 3, 4, 5, 10].map(high)).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  });

  it('spreads retries that start together', () => {
    let seed = 1;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646;
    const delays = new Set(Array.from({ length: 20 }, () => retryDelayMs(3, 500, 30_000, random)));
    expect(delays.size).toBeGreaterThan(10);
  });
});
