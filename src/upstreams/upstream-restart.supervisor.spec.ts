import { UpstreamRestartSupervisor } from './upstream-restart.supervisor';
import type { UpstreamState } from './upstream-state';

describe('UpstreamRestartSupervisor', () => {
  const policy = { baseMs: 1_000, maxMs: 8_000, maxFailures: 3, windowMs: 60_000 };

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function supervisor() {
    const restarts: number[] = [];
    const states: UpstreamState[] = [];
    const subject = new UpstreamRestartSupervisor(
      'echo',
      policy,
      () => restarts.push(Date.now()),
      (state) => states.push(state),
      () => 0.5,
    );
    return { subject, restarts, states };
  }

  it('schedules a restart after a crash and refuses calls until it is due', () => {
    const { subject, restarts, states } = supervisor();
    subject.connected();
    subject.failed('child exited unexpectedly', { restart: true });
    expect(subject.current).toMatchObject({ state: 'degraded', restarts: 1 });
    const refusal = subject.refusal();
    expect(refusal?.data).toEqual({ code: 'mcp_unavailable', server_id: 'echo' });
    expect(refusal?.message).toContain('restarting after a failure (attempt 1)');
    jest.advanceTimersByTime(500);
    expect(restarts).toHaveLength(1);
    expect(subject.refusal()).toBeUndefined();
    subject.connected();
    expect(states).toEqual(['connected', 'degraded', 'connected']);
    expect(subject.current.last_error).toBe('child exited unexpectedly');
  });

  it('marks the server down after maxFailures in the window, then lets one call try after it', () => {
    const { subject, restarts } = supervisor();
    for (let i = 0; i < 3; i++) subject.failed(`failure ${i}`, { restart: true });
    expect(subject.current.state).toBe('down');
    expect(subject.refusal()?.message).toContain('down after repeated failures (last: failure 2)');
    jest.advanceTimersByTime(60_000);
    expect(restarts).toHaveLength(0);
    expect(subject.refusal()).toBeUndefined();
  });

  it('records an HTTP failure as down without scheduling or refusing anything', () => {
    const { subject, restarts } = supervisor();
    subject.failed('connect ECONNREFUSED', { restart: false });
    expect(subject.current.state).toBe('down');
    jest.advanceTimersByTime(60_000);
    expect(restarts).toEqual([]);
  });

  it('goes idle only from connected, and a pending restart is dropped on cancel', () => {
    const { subject, restarts } = supervisor();
    subject.connected();
    subject.idle();
    expect(subject.current.state).toBe('idle');
    subject.failed('crash', { restart: true });
    subject.cancel();
    jest.advanceTimersByTime(10_000);
    expect(restarts).toEqual([]);
  });
});
