import { requestScope } from '../observability/request-scope';
import { prepareResponse, serializeOutbound } from './json-rpc.serializer';
import { JsonRpcResponse } from './json-rpc.types';

describe('JSON-RPC serializer', () => {
  const good: JsonRpcResponse = { jsonrpc: '2.0', id: 1, result: { text: 'hé' } };

  it('serializes a message once and reuses the text', () => {
    const prepared = prepareResponse(good);
    expect(prepared.response).toBe(good);
    expect(prepared.bytes).toBe(Buffer.byteLength(JSON.stringify(good)));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      expect(serializeOutbound(good)).toBe(JSON.stringify(good));
      // Once for the expectation above; the serializer itself used its cached text.
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('replaces an unserializable response with -32603 for the same id, for the ledger too', () => {
    const bad = { jsonrpc: '2.0', id: 'x', result: { big: BigInt(1) } } as JsonRpcResponse;
    const prepared = prepareResponse(bad);
    expect(prepared.response).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      error: {
        code: -32603,
        message: expect.stringMatching(/could not be serialized as JSON/) as string,
        data: { retryable: false },
      },
    });
    // The transport sends the replacement's text, which the size describes.
    const text = serializeOutbound(prepared.response);
    expect(JSON.parse(text!)).toEqual(prepared.response);
    expect(prepared.bytes).toBe(Buffer.byteLength(text!));
  });

  it('gives the replacement the trace id of the request being served, like any error of it', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const bad = { jsonrpc: '2.0', id: 7, result: { big: BigInt(2) } } as JsonRpcResponse;
    const scope = { requestId: '7', traceId, spanId: '00f067aa0ba902b7', sampled: false };
    const prepared = requestScope.run({ ...scope, method: 'tools/call', clientId: 'c' }, () =>
      prepareResponse(bad),
    );
    expect(prepared.response).toMatchObject({
      id: 7,
      error: { code: -32603, data: { retryable: false, traceId } },
    });
    // The transport, out of the scope, sends the replacement's text as it was made.
    expect(JSON.parse(serializeOutbound(prepared.response)!)).toEqual(prepared.response);
  });

  it('drops an unserializable notification and keeps the rest of a batch', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(
      serializeOutbound({ jsonrpc: '2.0', method: 'notifications/message', params: cycle }),
    ).toBeUndefined();
    const batch = serializeOutbound([
      good,
      { jsonrpc: '2.0', id: 2, result: { cycle } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { cycle } },
    ]);
    const parsed = JSON.parse(batch!) as Array<{ id?: number; error?: { code: number } }>;
    expect(parsed).toHaveLength(2);
    expect(parsed[0]).toEqual(good);
    expect(parsed[1]).toMatchObject({ id: 2, error: { code: -32603 } });
  });
});
