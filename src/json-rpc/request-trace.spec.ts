import { ErrorCode } from '../errors/error-code';
import { failure, success } from './json-rpc.responses';
import { McpRequestContext } from './mcp-request-context';
import { endOfRequest, SUCCEEDED } from './request-trace';

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
