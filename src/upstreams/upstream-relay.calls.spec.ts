import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { callAbandoned, RelayCaller, UpstreamRelayCalls } from './upstream-relay.calls';
import { UPSTREAM_RELAY_LIMITS } from './upstream-relay.limits';

function caller(sessionId: string): RelayCaller {
  const answer = () => Promise.resolve({ sessionId });
  return { sessionId, sample: answer, elicit: answer, signal: new AbortController().signal };
}

describe('UpstreamRelayCalls', () => {
  afterEach(() => jest.useRealTimers());

  it('refuses when no call is in flight', () => {
    expect(new UpstreamRelayCalls().attribute()).toEqual({
      refused: 'no_call_in_flight',
      sessions: 0,
    });
  });

  it('attributes to the oldest call when every call in flight is one session s', () => {
    const calls = new UpstreamRelayCalls();
    const first = caller('s1');
    calls.begin(first);
    calls.begin(caller('s1'));
    const attribution = calls.attribute();
    expect('caller' in attribution && attribution.caller).toBe(first);
  });

  it('refuses as ambiguous while calls of two sessions are in flight, and attributes again once one ends', () => {
    const calls = new UpstreamRelayCalls();
    const mine = caller('s1');
    calls.begin(mine);
    const end = calls.begin(caller('s2'));
    expect(calls.attribute()).toEqual({ refused: 'ambiguous', sessions: 2 });
    end(false);
    const attribution = calls.attribute();
    expect('caller' in attribution && attribution.caller).toBe(mine);
  });

  it('refuses a call made for no client', () => {
    const calls = new UpstreamRelayCalls();
    calls.begin(undefined);
    expect(calls.attribute()).toEqual({ refused: 'no_caller', sessions: 1 });
  });

  it('keeps an abandoned call as a caller-less one for the grace period, so its late requests reach nobody', () => {
    jest.useFakeTimers();
    const calls = new UpstreamRelayCalls();
    const abandon = calls.begin(caller('gone'));
    abandon(true);
    const other = caller('s1');
    calls.begin(other);
    expect(calls.attribute()).toEqual({ refused: 'ambiguous', sessions: 2 });
    jest.advanceTimersByTime(UPSTREAM_RELAY_LIMITS.abandonedGraceMs);
    const attribution = calls.attribute();
    expect('caller' in attribution && attribution.caller).toBe(other);
    expect(calls.size).toBe(1);
  });

  it('counts a call as abandoned when the caller aborted or the upstream timed out, not when it answered', () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(callAbandoned(new Error('x'), aborted.signal)).toBe(true);
    expect(callAbandoned(new McpError(McpErrorCode.RequestTimeout, 'late'), undefined)).toBe(true);
    expect(callAbandoned(new McpError(McpErrorCode.InvalidParams, 'bad'), undefined)).toBe(false);
  });
});
