import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamTaskDeadline } from './upstream-task.deadline';

describe('UpstreamTaskDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const timeoutOf = (deadline: UpstreamTaskDeadline): McpError => {
    expect(deadline.signal.aborted).toBe(true);
    const reason = deadline.signal.reason as McpError;
    expect(reason).toBeInstanceOf(McpError);
    expect(reason.code).toBe(McpErrorCode.RequestTimeout);
    return reason;
  };

  it('fires after idleMs without a sign of life, with a RequestTimeout McpError', () => {
    const deadline = new UpstreamTaskDeadline(1_000, 10_000);
    jest.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(timeoutOf(deadline).message).toContain('showed no progress for 1000 ms');
  });

  it('starts the idle limit again on touch, but never past totalMs', () => {
    const deadline = new UpstreamTaskDeadline(1_000, 2_500);
    for (let step = 0; step < 4; step++) {
      jest.advanceTimersByTime(600);
      deadline.touch();
    }
    // 2,400 ms in, touched every 600 ms: only the total limit can end it now.
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(100);
    expect(timeoutOf(deadline).message).toContain('ran past 2500 ms');
  });

  it("follows the caller's signal with the caller's reason", () => {
    const caller = new AbortController();
    const deadline = new UpstreamTaskDeadline(1_000, 10_000, caller.signal);
    const reason = new Error('cancelled by the client');
    caller.abort(reason);
    expect(deadline.signal.reason).toBe(reason);
    // Its own timers are gone: the caller's reason stays the reason.
    jest.advanceTimersByTime(20_000);
    expect(deadline.signal.reason).toBe(reason);
  });

  it('starts aborted when the caller already stopped', () => {
    const caller = new AbortController();
    caller.abort(new Error('too late'));
    expect(new UpstreamTaskDeadline(1_000, 10_000, caller.signal).signal.aborted).toBe(true);
  });

  it('never fires once disposed, and lets go of the caller', () => {
    const caller = new AbortController();
    const deadline = new UpstreamTaskDeadline(1_000, 10_000, caller.signal);
    deadline.dispose();
    jest.advanceTimersByTime(20_000);
    caller.abort(new Error('after the end'));
    expect(deadline.signal.aborted).toBe(false);
  });
});
