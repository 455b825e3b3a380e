import { incomingParent } from './incoming-parent';

const HEADER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const META_TRACE = '0af7651916cd43dd8448eb211c80319c';
const header = `00-${HEADER_TRACE}-00f067aa0ba902b7-01`;
const meta = `00-${META_TRACE}-b7ad6b7169203331-00`;

describe('the parent a request names', () => {
  it("takes the message's own _meta.traceparent over the header", () => {
    expect(incomingParent({ _meta: { traceparent: meta } }, header)).toEqual({
      traceId: META_TRACE,
      parentSpanId: 'b7ad6b7169203331',
      sampled: false,
    });
  });

  it('falls back to the header when _meta has none, or an unusable one', () => {
    expect(incomingParent({}, header)?.traceId).toBe(HEADER_TRACE);
    expect(incomingParent(undefined, header)?.traceId).toBe(HEADER_TRACE);
    expect(incomingParent({ _meta: { traceparent: { nested: meta } } }, header)?.traceId).toBe(
      HEADER_TRACE,
    );
    expect(incomingParent({ _meta: 'text' }, header)?.traceId).toBe(HEADER_TRACE);
  });

  it('has no parent when nothing usable is named', () => {
    expect(incomingParent(undefined, undefined)).toBeUndefined();
    expect(incomingParent({ _meta: { traceparent: 'junk' } }, 'junk')).toBeUndefined();
    expect(incomingParent({ _meta: [meta] }, undefined)).toBeUndefined();
  });

  it('accepts a legacy _meta.traceId of 32 hex digits as a not-sampled parent, last', () => {
    const legacy = incomingParent({ _meta: { traceId: META_TRACE.toUpperCase() } }, undefined);
    expect(legacy).toMatchObject({ traceId: META_TRACE, sampled: false });
    expect(legacy?.parentSpanId).toMatch(/^[0-9a-f]{16}$/);
    expect(incomingParent({ _meta: { traceId: META_TRACE } }, header)?.traceId).toBe(HEADER_TRACE);
  });

  it.each([
    ['a UUID', '0af76519-16cd-43dd-8448-eb211c80319c'],
    ['all zeros', '0'.repeat(32)],
    ['too long', `${META_TRACE}0`],
    ['not hex', 'z'.repeat(32)],
    ['a number', 42],
  ])('ignores a legacy _meta.traceId that is %s', (_title, traceId) => {
    expect(incomingParent({ _meta: { traceId } }, undefined)).toBeUndefined();
  });
});
