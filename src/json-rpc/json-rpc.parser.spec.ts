import fc from 'fast-check';
import { ErrorCode } from '../errors/error-code';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { MessageShapeLimits, parseFrame as parseWith, validateMessage } from './json-rpc.parser';
import { InboundEntry, InboundFrame, JsonRpcMessage } from './json-rpc.types';

const LIMITS: MessageShapeLimits = DEFAULT_CONFIG.limits;
const parseFrame = (raw: string | Buffer): InboundFrame => parseWith(raw, LIMITS);

function single(raw: string): InboundEntry {
  const frame = parseFrame(raw);
  if (frame.kind !== 'single') throw new Error(`expected a single message, got ${frame.kind}`);
  return frame.entry;
}

function invalidCode(entry: InboundEntry): number | undefined {
  return entry.kind === 'invalid' ? entry.response.error.code : undefined;
}

describe('parseFrame', () => {
  it('answers malformed JSON with -32700 and a null id', () => {
    const frame = parseFrame('{"jsonrpc":"2.0","id":1,');
    expect(frame.kind).toBe('unparseable');
    if (frame.kind !== 'unparseable') return;
    expect(frame.response.id).toBeNull();
    expect(frame.response.error.code).toBe(ErrorCode.ParseError);
    expect(frame.response.error.message).toMatch(/^Parse error: /);
  });

  it('rejects bytes that are not UTF-8 as a parse error', () => {
    const frame = parseFrame(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    expect(frame.kind === 'unparseable' && frame.response.error.message).toContain('UTF-8');
  });

  it('answers an empty batch with one -32600', () => {
    const frame = parseFrame('[]');
    expect(frame.kind === 'unparseable' && frame.response.error.code).toBe(
      ErrorCode.InvalidRequest,
    );
  });

  it('classifies requests, notifications and responses', () => {
    expect(single('{"jsonrpc":"2.0","id":"a","method":"ping"}').kind).toBe('request');
    expect(single('{"jsonrpc":"2.0","method":"notifications/initialized"}').kind).toBe(
      'notification',
    );
    expect(single('{"jsonrpc":"2.0","id":7,"result":{}}').kind).toBe('response');
    expect(single('{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"x"}}').kind).toBe(
      'response',
    );
  });

  it.each([
    ['not an object', '42'],
    ['wrong version', '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
    ['missing method', '{"jsonrpc":"2.0","id":1}'],
    ['empty method', '{"jsonrpc":"2.0","id":1,"method":""}'],
    ['array params', '{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}'],
    ['null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}'],
    ['fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}'],
    ['unsafe integer id', '{"jsonrpc":"2.0","id":1e300,"method":"ping"}'],
    ['result and error', '{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}'],
  ])('refuses %s with -32600', (_name, raw) => {
    expect(invalidCode(single(raw))).toBe(ErrorCode.InvalidRequest);
  });

  it('echoes a valid id on an invalid request and nulls an invalid one', () => {
    const withId = single('{"jsonrpc":"2.0","id":"k","method":5}');
    expect(withId.kind === 'invalid' && withId.response.id).toBe('k');
    const badId = single('{"jsonrpc":"2.0","id":{},"method":"ping"}');
    expect(badId.kind === 'invalid' && badId.response.id).toBeNull();
  });

  it('accepts limits.message_max_depth levels of nesting and refuses one more, unparsed, naming the limit', () => {
    // The message object is level 1; params is level 2; the chain fills the rest.
    const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
    const message = (levels: number) =>
      `{"jsonrpc":"2.0","id":"deep","method":"ping","params":${nested(levels - 1)}}`;
    const max = LIMITS.message_max_depth;
    expect(single(message(max)).kind).toBe('request');
    expect(parseFrame(`[${message(max)}]`).kind).toBe('batch');
    const refused = parseFrame(message(max + 1));
    expect(refused).toMatchObject({
      kind: 'unparseable',
      limit: 'message_max_depth',
      response: {
        id: null,
        error: {
          code: ErrorCode.InvalidRequest,
          data: { limit: 'limits.message_max_depth', max, retryable: false },
        },
      },
    });
  });

  it('refuses a million levels of nesting before parsing (no stack overflow, no value built)', () => {
    const depth = 1_000_000;
    const raw = `{"jsonrpc":"2.0","method":"n","params":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    expect(parseFrame(raw)).toMatchObject({ kind: 'unparseable', limit: 'message_max_depth' });
  });

  it('counts keys and array elements in every part of the message, not only arguments', () => {
    const keys = Array.from({ length: LIMITS.message_max_keys }, (_, i) => `"k${i}":0`);
    const withKeys = (n: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{},"_x":{${keys.slice(0, n - 5).join(',')}}}}`;
    // n + 2 keys in all: n - 5 in the filler, 7 in the envelope (jsonrpc ... arguments, _x).
    expect(parseFrame(withKeys(LIMITS.message_max_keys - 2)).kind).toBe('single');
    expect(parseFrame(withKeys(LIMITS.message_max_keys - 1))).toMatchObject({
      kind: 'unparseable',
      limit: 'message_max_keys',
    });
    const wide = (n: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_x":[${'0,'.repeat(n - 1)}0]}}`;
    expect(parseFrame(wide(LIMITS.message_max_array_elements)).kind).toBe('single');
    expect(parseFrame(wide(LIMITS.message_max_array_elements + 1))).toMatchObject({
      kind: 'unparseable',
      limit: 'message_max_array_elements',
      response: { error: { data: { max: LIMITS.message_max_array_elements } } },
    });
  });

  it('refuses a batch of more than limits.batch_max_requests messages as such, before counting what they hold', () => {
    const message = (i: number) => `{"jsonrpc":"2.0","id":${i},"method":"tools/list"}`;
    const batch = (n: number) => `[${Array.from({ length: n }, (_, i) => message(i)).join(',')}]`;
    expect(parseFrame(batch(LIMITS.batch_max_requests)).kind).toBe('batch');
    expect(parseFrame(batch(LIMITS.batch_max_requests + 1))).toMatchObject({
      kind: 'unparseable',
      limit: 'batch_max_requests',
      response: { id: null, error: { code: -32600, data: { limit: 'limits.batch_max_requests' } } },
    });
    // Far more keys than limits.message_max_keys: the batch's length is still what is named.
    const huge = batch(Math.ceil(LIMITS.message_max_keys / 3) + 1);
    expect(parseFrame(huge)).toMatchObject({ limit: 'batch_max_requests' });
  });

  it('validates batch elements one by one', () => {
    const frame = parseFrame(
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},1,{"jsonrpc":"2.0","method":"n"}]',
    );
    expect(frame.kind === 'batch' && frame.entries.map((e) => e.kind)).toEqual([
      'request',
      'invalid',
      'notification',
    ]);
  });
});

/** Seed Property 1: parse -> serialize -> parse is the identity for valid messages. */
describe('JSON-RPC round trip', () => {
  const id = fc.oneof(
    fc.string(),
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  );
  const params = fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined });
  const method = fc.string({ minLength: 1 });
  const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
    fc.record(
      { jsonrpc: fc.constant('2.0' as const), id, method, params },
      { requiredKeys: ['jsonrpc', 'id', 'method'] },
    ),
    fc.record(
      { jsonrpc: fc.constant('2.0' as const), method, params },
      { requiredKeys: ['jsonrpc', 'method'] },
    ),
    fc.record({ jsonrpc: fc.constant('2.0' as const), id, result: fc.jsonValue() }),
    fc.record({
      jsonrpc: fc.constant('2.0' as const),
      id,
      error: fc.record({ code: fc.integer(), message: fc.string() }),
    }),
  );

  const batch = fc.array(message, { minLength: 1, maxLength: 12 });

  function batchEntries(raw: string): InboundEntry[] {
    const frame = parseFrame(raw);
    if (frame.kind !== 'batch') throw new Error(`expected a batch, got ${frame.kind}`);
    return frame.entries;
  }

  it('holds for generated batches of valid messages, element by element and in order', () => {
    fc.assert(
      fc.property(batch, (originals) => {
        const first = batchEntries(JSON.stringify(originals));
        expect(first).toHaveLength(originals.length);
        expect(first.map((entry) => entry.kind)).not.toContain('invalid');
        // Each element parses as it would on its own.
        expect(first).toEqual(originals.map((original) => single(JSON.stringify(original))));
        const payloads = first.map((entry) =>
          entry.kind === 'invalid' ? entry.response : entry.message,
        );
        expect(batchEntries(JSON.stringify(payloads))).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });

  it('holds for generated messages', () => {
    fc.assert(
      fc.property(message, (original) => {
        const first = single(JSON.stringify(original));
        expect(first.kind).not.toBe('invalid');
        const payload = first.kind === 'invalid' ? first.response : first.message;
        const second = single(JSON.stringify(payload));
        expect(second).toEqual(first);
        expect(validateMessage(JSON.parse(JSON.stringify(payload)))).toEqual(first);
      }),
      { numRuns: 500 },
    );
  });
});
