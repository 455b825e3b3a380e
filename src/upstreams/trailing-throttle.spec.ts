import { TrailingThrottle } from './trailing-throttle';

describe('TrailingThrottle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs a flood of calls at most twice per gap: once at once, once at its end', () => {
    const action = jest.fn();
    const throttle = new TrailingThrottle(250, action);
    for (let i = 0; i < 10_000; i++) throttle.call();
    expect(action).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(250);
    expect(action).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(1_000);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('runs at once again after a quiet gap, and not after cancel', () => {
    const action = jest.fn();
    const throttle = new TrailingThrottle(250, action);
    throttle.call();
    jest.advanceTimersByTime(300);
    throttle.call();
    expect(action).toHaveBeenCalledTimes(2);
    throttle.call();
    throttle.cancel();
    jest.advanceTimersByTime(1_000);
    expect(action).toHaveBeenCalledTimes(2);
  });
});
