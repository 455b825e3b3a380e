import { ErrorCode } from '../errors/error-code';
import { failure, success } from './json-rpc.responses';
import { McpRequestContext } from './mcp-request-context';
import { callerTraceId, carriedTraceId, endOfRequest, SUCCEEDED } from './request-trace';

/** Only `call` is read to tell how a request ended. */
const contextWith = (call: McpRequestContext['call']) => ({ call }) as McpRequestContext;

describe('how a dispatched request ends its span', () => {
  it('a plain success ends with nothing to add', () => {
    expect(endOfRequest(success(1, { content: [] }), contextWith({}))).toBe(SUCCEEDED);
  });

  it('a failure carries its code, message and the outcome of its code', () => {
    expect(endOfRequest(failure(1, ErrorCode.Timeout, 'too slow'), undefined)).toEqual({
      errorCode: ErrorCode.Timeout,
      message: 'too slow',
      outcome: 'timeout',
    });
  });

  it('a cancelled request, a tool’s own error and a question asked back are outcomes of their own', () => {
    expect(endOfRequest(undefined, contextWith({}))).toEqual({ outcome: 'cancelled' });
    expect(endOfRequest(success(1, { isError: true, content: [] }), contextWith({}))).toEqual({
      outcome: 'tool_error',
    });
    expect(endOfRequest(success(1, {}), contextWith({ inputRequired: true }))).toEqual({
      outcome: 'input_required',
    });
  });
});

describe('the trace id of an answer made outside a span', () => {
  const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
  const META_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
  const header = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

  it("is the caller's: the message's own _meta.traceparent, else the header", () => {
    const meta = { _meta: { traceparent: `00-${META_TRACE_ID}-b7ad6b7169203331-01` } };
    expect(callerTraceId(meta, header)).toBe(META_TRACE_ID);
    expect(callerTraceId(undefined, header)).toBe(TRACE_ID);
  });

  it('is a fresh W3C id when the caller named none, or one it cannot use', () => {
    const fresh = callerTraceId(
      { _meta: { traceparent: 'nonsense' } },
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
    );
    expect(fresh).toMatch(/^[0-9a-f]{32}$/);
    expect(callerTraceId(undefined, undefined)).not.toBe(fresh);
  });

  it('is read back from an error answer that carries one, and from nothing else', () => {
    expect(carriedTraceId(failure(1, -32600, 'no', { traceId: TRACE_ID }))).toBe(TRACE_ID);
    expect(carriedTraceId(failure(1, -32600, 'no', { traceId: 42 }))).toBeUndefined();
    expect(carriedTraceId(failure(1, -32600, 'no', [TRACE_ID]))).toBeUndefined();
    expect(carriedTraceId(success(1, { traceId: TRACE_ID }))).toBeUndefined();
  });
});
