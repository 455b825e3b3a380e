import {
  formatTraceparent,
  newSpanId,
  newTraceId,
  parseTraceparent,
  TRACEPARENT_MAX_CHARS,
} from './traceparent';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  it('reads the trace id, the caller span and the sampled flag', () => {
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01`)).toEqual({
      traceId: TRACE_ID,
      parentSpanId: SPAN_ID,
      sampled: true,
    });
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-00`)?.sampled).toBe(false);
    // Only bit 0 means sampled; other flags are kept apart.
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-03`)?.sampled).toBe(true);
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-02`)?.sampled).toBe(false);
  });

  it('accepts a later version with more fields, but not version 00 with more', () => {
    expect(parseTraceparent(`01-${TRACE_ID}-${SPAN_ID}-01-what-comes-next`)?.traceId).toBe(
      TRACE_ID,
    );
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01-extra`)).toBeUndefined();
  });

  it.each([
    ['the forbidden version ff', `ff-${TRACE_ID}-${SPAN_ID}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN_ID}-01`],
    ['an all-zero span id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`],
    ['a short trace id', `00-${TRACE_ID.slice(1)}-${SPAN_ID}-01`],
    ['a long span id', `00-${TRACE_ID}-${SPAN_ID}0-01`],
    ['a missing field', `00-${TRACE_ID}-${SPAN_ID}`],
    ['other separators', `00_${TRACE_ID}_${SPAN_ID}_01`],
    ['the empty string', ''],
    ['garbage', 'not a traceparent'],
  ])('ignores %s', (_title, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('ignores what is not a string at all', () => {
    for (const value of [undefined, null, 42, { traceId: TRACE_ID }, [TRACE_ID]]) {
      expect(parseTraceparent(value)).toBeUndefined();
    }
  });

  it('refuses a value longer than TRACEPARENT_MAX_CHARS before reading it', () => {
    const padded = `01-${TRACE_ID}-${SPAN_ID}-01-${'x'.repeat(TRACEPARENT_MAX_CHARS)}`;
    expect(parseTraceparent(padded)).toBeUndefined();
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01${' '.repeat(8192)}`)).toBeUndefined();
  });

  it('formats what it parses back to the same text', () => {
    const text = formatTraceparent(TRACE_ID, SPAN_ID, true);
    expect(text).toBe(`00-${TRACE_ID}-${SPAN_ID}-01`);
    expect(parseTraceparent(text)).toEqual({
      traceId: TRACE_ID,
      parentSpanId: SPAN_ID,
      sampled: true,
    });
    expect(formatTraceparent(TRACE_ID, SPAN_ID, false).endsWith('-00')).toBe(true);
  });

  it('makes new ids of the W3C sizes, different each time', () => {
    const traces = new Set(Array.from({ length: 100 }, () => newTraceId()));
    expect(traces.size).toBe(100);
    for (const id of traces) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(newSpanId()).toMatch(/^[0-9a-f]{16}$/);
    expect(parseTraceparent(formatTraceparent(newTraceId(), newSpanId(), false))).toBeDefined();
  });
});
