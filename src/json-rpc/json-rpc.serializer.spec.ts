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
