import { IncomingMessage } from 'node:http';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { JsonRpcRequest } from '../../json-rpc/json-rpc.types';
import { checkMirroredHeaders } from './mirrored-headers.check';

const call: JsonRpcRequest = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'café_menu', arguments: {} },
};
const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

/** Node lowercases header names; the check reads them the same way. */
function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

function refusal(headers: Record<string, string>): string | undefined {
  try {
    checkMirroredHeaders(request(headers), call, '2026-07-28');
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe(ErrorCode.HeaderMismatch);
    return (err as GatewayError).message;
  }
}

const valid = {
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': base64('café_menu'),
};

describe('checkMirroredHeaders', () => {
  it('accepts headers that mirror the body, a non-ASCII name in the Base64 sentinel form', () => {
    expect(refusal(valid)).toBeUndefined();
  });

  it.each([
    [
      'a name in plain text that is not the body name',
      { 'mcp-name': 'cafe_menu' },
      'does not match',
    ],
    ['a sentinel that is not Base64', { 'mcp-name': '=?base64?caf*?=' }, 'Base64'],
    ['a sentinel with bad padding', { 'mcp-name': '=?base64?SGVsbG8?=' }, 'Base64'],
    ['a header with a control character', { 'mcp-name': 'caf\u0000' }, 'invalid characters'],
    ['a missing Mcp-Name', { 'mcp-name': undefined }, 'Mcp-Name header is required'],
    ['a missing Mcp-Method', { 'mcp-method': undefined }, 'Mcp-Method header is required'],
    [
      'another revision in the header',
      { 'mcp-protocol-version': '2025-11-25' },
      'MCP-Protocol-Version',
    ],
  ])('refuses %s', (_, change, message) => {
    const headers = { ...valid, ...change } as Record<string, string>;
    for (const [name, value] of Object.entries(headers))
      if (value === undefined) delete headers[name];
    expect(refusal(headers)).toContain(message);
  });

  it('takes a value without both sentinel markers literally', () => {
    const literal = { ...call, params: { name: '=?base64?YWJj', arguments: {} } };
    const headers = { ...valid, 'mcp-name': '=?base64?YWJj' };
    expect(() => checkMirroredHeaders(request(headers), literal, '2026-07-28')).not.toThrow();
  });

  it('clips a long header value in its message', () => {
    const message = refusal({ ...valid, 'mcp-name': 'x'.repeat(10_000) })!;
    expect(message.length).toBeLessThan(400);
  });
});
