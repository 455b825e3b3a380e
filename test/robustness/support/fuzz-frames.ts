/**
 * fast-check generators of inbound JSON-RPC frames: valid requests, wrong
 * types, missing members, unknown methods, huge ids, deep nesting, invalid
 * UTF-8, truncated JSON, random bytes, junk batches and notifications.
 *
 * Generators yield plain descriptions (shrinkable, printable); `materialize`
 * turns one into wire bytes, giving every valid id a value unique in the
 * whole run so that answers arriving in any order can be matched.
 */
import fc from 'fast-check';
import { DEFAULT_CONFIG } from '../../../src/config/config.defaults';
import { KNOWN_METHODS } from './jsonrpc-oracle';

/** The fuzzed gateways run with the default limits; sizes are drawn around them. */
const LIMITS = DEFAULT_CONFIG.limits;

/** `fresh`: the session has not been initialized and must stay so (no valid initialize anywhere). */
export type FuzzMode = 'fresh' | 'ready';

export type IdSpec =
  | { t: 'int'; form: 'plain' | 'negative' | 'point-zero' | 'exponent' | 'max-safe' }
  | { t: 'str'; prefix: string; pad: number }
  | { t: 'bad'; raw: string };

/** One JSON object whose members are JSON texts (any of them may be absent). */
export interface MessageSpec {
  t: 'msg';
  jsonrpc?: string;
  id?: IdSpec;
  method?: string;
  params?: string;
  result?: string;
  error?: string;
  extra: Array<[string, string]>;
  /** Rotates the member order. */
  rotate: number;
}

export type BatchItem = MessageSpec | { t: 'junk'; raw: string };

export type FrameSpec =
  | { t: 'single'; msg: MessageSpec; before: string; after: string }
  | { t: 'batch'; items: BatchItem[]; space: string }
  | { t: 'truncated'; msg: MessageSpec; keep: number }
  | { t: 'bad-utf8'; msg: MessageSpec; at: number; bytes: number[] }
  | { t: 'bytes'; bytes: number[] }
  | { t: 'text'; text: string }
  | { t: 'deep'; shape: DeepShape; depth: number; truncate: boolean }
  | { t: 'bom'; msg: MessageSpec }
  | { t: 'concat'; first: MessageSpec; second: MessageSpec }
  | { t: 'huge-arguments'; method: HugeMethod; shape: HugeShape; size: number }
  | { t: 'long-batch'; method: 'ping' | 'tools/list'; length: number }
  | { t: 'big-initialize'; member: 'capabilities' | 'clientInfo'; keys: number; text: number };

/** Methods whose `arguments` the gateway measures against limits.argument_*. */
export type HugeMethod = 'tools/call' | 'prompts/get';
/** How an argument object is made huge: many keys, many keys nested, nesting, one long string, a long array. */
export type HugeShape = 'keys' | 'nested-keys' | 'deep' | 'string' | 'array';

export type DeepShape = 'array' | 'object' | 'mixed';

export const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

const json = (value: unknown) => JSON.stringify(value);

// ---------------------------------------------------------------- leaves

/** Depths around the limit, shallow ones, and "a few thousand". */
export const depthArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 64 }) },
  {
    weight: 2,
    arbitrary: fc.integer({
      min: LIMITS.message_max_depth - 3,
      max: LIMITS.message_max_depth + 3,
    }),
  },
  { weight: 2, arbitrary: fc.integer({ min: 65, max: 3000 }) },
);

export function deepText(shape: DeepShape, depth: number): string {
  switch (shape) {
    case 'array':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'object':
      return '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth);
    case 'mixed': {
      // [{"k":[{"k":...}]}]: `depth` containers in all.
      let open = '';
      let close = '';
      for (let i = 0; i < depth; i++) {
        if (i % 2 === 0) {
          open += '[';
          close = ']' + close;
        } else {
          open += '{"k":';
          close = '}' + close;
        }
      }
      return depth % 2 === 0 ? `${open}1${close}` : open + close;
    }
  }
}

const deepArb = fc
  .record({ shape: fc.constantFrom<DeepShape>('array', 'object', 'mixed'), depth: depthArb })
  .map(({ shape, depth }) => deepText(shape, depth));

const smallJson = fc.jsonValue({ maxDepth: 3 }).map(json);

const jsonrpcArb = fc.oneof(
  { weight: 24, arbitrary: fc.constant<string | undefined>('"2.0"') },
  { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | undefined>(
      '"1.0"',
      '"2"',
      '2',
      '2.0',
      'null',
      '"2.0 "',
      '" 2.0"',
      '["2.0"]',
      '{}',
      '"2.00"',
      '"\uff12.\uff10"',
      'true',
      '"20"',
      '""',
    ),
  },
);

const badIdArb = fc.oneof(
  fc.constantFrom(
    'null',
    'true',
    'false',
    '1.5',
    '-0.25',
    '1e308',
    '-1e308',
    '1e-7',
    '9007199254740992',
    '-9007199254740993',
    '123456789012345678901234567890',
    '1e400',
    '{}',
    '[]',
    '[1]',
    '{"id":1}',
    '["a"]',
  ),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .filter((d) => !Number.isSafeInteger(d))
    .map(json),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 300n }).map((b) => b.toString()),
  fc.bigInt({ min: -(2n ** 300n), max: -(2n ** 53n) }).map((b) => b.toString()),
  fc.integer({ min: 1, max: 50 }).map((depth) => deepText('array', depth)),
);

export const idArb: fc.Arbitrary<IdSpec> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom('plain', 'negative', 'point-zero', 'exponent', 'max-safe' as const)
      .map((form): IdSpec => ({ t: 'int', form })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        prefix: fc.string({ unit: 'binary', maxLength: 12 }),
        pad: fc.oneof(
          { weight: 12, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 70_000 }) },
        ),
      })
      .map(({ prefix, pad }): IdSpec => ({ t: 'str', prefix, pad })),
  },
  { weight: 2, arbitrary: badIdArb.map((raw): IdSpec => ({ t: 'bad', raw })) },
);

const unknownMethodArb = fc
  .oneof(
    fc.constantFrom(
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'rpc.discover',
      'PING',
      ' ping',
      'ping ',
      'ping\u0000',
      'tools/list/',
      'tools//list',
      'tools/List',
      'notifications/unknown',
      'initialize2',
      'resources/../tools/list',
      '\u202eping',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    fc.string({ minLength: 1, maxLength: 20 }).map((s) => `x/${s}`),
    fc.integer({ min: 1_000, max: 60_000 }).map((n) => 'm'.repeat(n)),
  )
  .filter((name) => !KNOWN_METHODS.has(name))
  .map(json);

const wrongMethodArb = fc.constantFrom(
  '5',
  'null',
  'true',
  '[]',
  '{}',
  '["ping"]',
  '""',
  '{"name":"ping"}',
  '0',
  '-1.5',
);

/** Reserved-looking keys (prototype pollution attempts) next to random ones. */
const keyArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 10 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '_meta'),
  },
);

function objectText(members: Array<[string, string]>): string {
  return `{${members.map(([key, value]) => `${json(key)}:${value}`).join(',')}}`;
}

const randomObjectArb = fc
  .array(fc.tuple(keyArb, smallJson), { maxLength: 5 })
  .map((members) => objectText(members));

/** params of any method: absent, objects (also deep ones) and wrong types. */
const paramsArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 3, arbitrary: fc.constant<string | undefined>('{}') },
  { weight: 4, arbitrary: randomObjectArb },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | undefined>(
      '[]',
      '[1,2]',
      '"s"',
      '5',
      'null',
      'true',
      'false',
      '0',
      '[{}]',
    ),
  },
  { weight: 2, arbitrary: deepArb.map((deep) => `{"deep":${deep}}`) },
  { weight: 1, arbitrary: smallJson.map((meta) => `{"_meta":${meta}}`) },
);

const toolsListParamsArb = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.constant<string | undefined>('{}'),
  smallJson.map((cursor) => `{"cursor":${cursor}}`),
  fc.string().map((cursor) => `{"cursor":${json(cursor)}}`),
  paramsArb,
);

const clientInfoArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant('{"name":"fuzz","version":"1.0.0"}') },
  {
    weight: 2,
    arbitrary: fc
      .record({ name: fc.string({ minLength: 1 }), version: fc.string() })
      .map((info) => json(info)),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '5',
      '"fuzz"',
      'null',
      '{}',
      '{"name":""}',
      '{"name":"x"}',
      '{"name":5,"version":"1"}',
      '{"name":"x","version":7}',
      '[]',
      '[{"name":"x","version":"1"}]',
      '{"name":"x","version":"1","__proto__":{"polluted":true}}',
    ),
  },
);

const protocolVersionArb = fc.oneof(
  fc.constantFrom(...SUPPORTED_VERSIONS).map(json),
  fc.constantFrom('"1.0"', '"2099-01-01"', '""', '5', 'null', '[]'),
  fc.string().map(json),
);

const capabilitiesArb = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.constant<string | undefined>('{}'),
  randomObjectArb,
  fc.constantFrom<string | undefined>('[]', '"all"', 'null', '5'),
);

/**
 * initialize params. A fresh session must stay uninitialized, so its
 * initialize params never carry clientInfo (and always fail validation).
 */
function initializeParamsArb(mode: FuzzMode) {
  return fc
    .record({
      protocolVersion: fc.option(protocolVersionArb, { nil: undefined, freq: 8 }),
      capabilities: capabilitiesArb,
      clientInfo:
        mode === 'ready'
          ? fc.option(clientInfoArb, { nil: undefined, freq: 8 })
          : fc.constant(undefined),
      deep: fc.option(deepArb, { nil: undefined, freq: 2 }),
      extra: fc.array(fc.tuple(keyArb, smallJson), { maxLength: 2 }),
    })
    .map(({ protocolVersion, capabilities, clientInfo, deep, extra }) => {
      const members: Array<[string, string]> = [];
      if (protocolVersion !== undefined) members.push(['protocolVersion', protocolVersion]);
      if (capabilities !== undefined) members.push(['capabilities', capabilities]);
      if (clientInfo !== undefined) members.push(['clientInfo', clientInfo]);
      if (deep !== undefined) members.push(['deep', deep]);
      for (const [key, value] of extra) {
        if (mode === 'ready' || key !== 'clientInfo') members.push([key, value]);
      }
      return objectText(members);
    })
    .map((text): string | undefined => text);
}

/** [method JSON text or undefined, params JSON text or undefined] */
function callArb(mode: FuzzMode): fc.Arbitrary<[string | undefined, string | undefined]> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constant(json('ping')), paramsArb) },
    { weight: 2, arbitrary: fc.tuple(fc.constant(json('tools/list')), toolsListParamsArb) },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constant(json('initialize')),
        fc.oneof(
          { weight: 6, arbitrary: initializeParamsArb(mode) },
          { weight: 1, arbitrary: paramsArb },
        ),
      ),
    },
    { weight: 5, arbitrary: fc.tuple(unknownMethodArb, paramsArb) },
    { weight: 1, arbitrary: fc.tuple(wrongMethodArb, paramsArb) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constant(json('notifications/initialized')), paramsArb),
    },
    // A cancellation of nothing: request ids of the fuzzers are never fractional.
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constant(json('notifications/cancelled')),
        fc.constantFrom('{"requestId":0.5}', '{"requestId":0.5,"reason":"fuzz"}'),
      ),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constant(undefined), paramsArb) },
  );
}

const extraArb = fc.array(fc.tuple(keyArb, smallJson), { maxLength: 2 }).map((members) =>
  // jsonrpc/id/method/params/result/error are generated on purpose, not as noise.
  members.filter(
    ([key]) => !['jsonrpc', 'id', 'method', 'params', 'result', 'error'].includes(key),
  ),
);

/** Requests and notifications (id absent about a quarter of the time). */
export function callMessageArb(mode: FuzzMode, idFreq = 3): fc.Arbitrary<MessageSpec> {
  return fc
    .record({
      jsonrpc: jsonrpcArb,
      id: fc.option(idArb, { nil: undefined, freq: idFreq }),
      call: callArb(mode),
      extra: extraArb,
      rotate: fc.nat(),
    })
    .map(({ jsonrpc, id, call: [method, params], extra, rotate }) => ({
      t: 'msg' as const,
      jsonrpc,
      id,
      method,
      params,
      extra,
      rotate,
    }));
}

export function notificationArb(mode: FuzzMode): fc.Arbitrary<MessageSpec> {
  return fc
    .record({ call: callArb(mode), rotate: fc.nat() })
    .map(({ call: [method, params], rotate }) => ({
      t: 'msg' as const,
      jsonrpc: '"2.0"',
      method: method ?? json('notifications/initialized'),
      params,
      extra: [],
      rotate,
    }));
}

const errorObjectArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record(
        { code: fc.integer(), message: fc.string(), data: fc.jsonValue({ maxDepth: 2 }) },
        { requiredKeys: ['code', 'message'] },
      )
      .map(json),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'null',
      '"oops"',
      '5',
      '[]',
      '{}',
      '{"code":"1","message":"x"}',
      '{"code":1}',
      '{"message":"x"}',
      '{"code":1,"message":5}',
    ),
  },
);

/** Client-to-server responses: to no pending request, malformed, with both members. */
export const responseMessageArb: fc.Arbitrary<MessageSpec> = fc
  .record({
    jsonrpc: jsonrpcArb,
    id: fc.option(idArb, { nil: undefined, freq: 6 }),
    body: fc.oneof(
      smallJson.map((result) => ({ result, error: undefined as string | undefined })),
      errorObjectArb.map((error) => ({ result: undefined as string | undefined, error })),
      fc.tuple(smallJson, errorObjectArb).map(([result, error]) => ({ result, error })),
    ),
    rotate: fc.nat(),
  })
  .map(({ jsonrpc, id, body, rotate }) => ({
    t: 'msg' as const,
    jsonrpc,
    id,
    ...body,
    extra: [],
    rotate,
  }));

export function messageArb(mode: FuzzMode): fc.Arbitrary<MessageSpec> {
  return fc.oneof(
    { weight: 8, arbitrary: callMessageArb(mode) },
    { weight: 1, arbitrary: responseMessageArb },
  );
}

const junkItemArb = fc.oneof(
  fc.constantFrom('1', '"x"', 'null', 'true', '[]', '[1]', '{}', '[[]]', '{"jsonrpc":"2.0"}'),
  smallJson,
  deepArb,
);

const whitespaceArb = fc.constantFrom('', '', '', ' ', '\t', '\r\n', '  \n ');

const invalidUtf8Arb = fc.constantFrom<number[]>(
  [0x80],
  [0xbf],
  [0xc0, 0x80],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf5],
  [0xfe],
  [0xff],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0xa6],
  [0xc3, 0x28],
);

const junkTextArb = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'NaN',
    'undefined',
    'Infinity',
    '-Infinity',
    "{'jsonrpc':'2.0','id':1,'method':'ping'}",
    '{"jsonrpc":"2.0","id":1,"method":"ping",}',
    '[1,]',
    '{"a":1 /* comment */}',
    '// comment',
    'null',
    'true',
    '0',
    '-0',
    '1e999',
    '"\\ud800"',
    '"\\x41"',
    '{"a":"\\u00"}',
    '{"a":01}',
    '\u0000',
    '\ufeff',
    '[',
    ']',
    '{',
    '}',
    '"',
    '{"jsonrpc":"2.0","id":1,"method":"ping"}}',
    '{"jsonrpc":"2.0","id":1,"method":"ping"} x',
  ),
  fc.jsonValue().map(json),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ maxLength: 200 }),
);

// ---------------------------------------------------------------- huge frames

/** A demo tool (DTO-validated) and a demo prompt: neither declares `zz_unknown`. */
export const HUGE_TARGETS: Record<HugeMethod, string> = {
  'tools/call': 'orders_get',
  'prompts/get': 'draft_order_confirmation',
};

/** Around the limit of each shape: from half of it to half again over it. */
const hugeSizeArb = (limit: number) =>
  fc.integer({ min: Math.ceil(limit / 2), max: Math.floor(limit * 1.5) });

/** tools/call and prompts/get whose arguments are huge, under or over limits.argument_*. */
export const hugeArgumentsArb: fc.Arbitrary<FrameSpec> = fc
  .record({
    method: fc.constantFrom<HugeMethod>('tools/call', 'prompts/get'),
    shape: fc.constantFrom<HugeShape>('keys', 'nested-keys', 'deep', 'string', 'array'),
  })
  .chain(({ method, shape }) => {
    const limit = {
      keys: LIMITS.argument_max_keys,
      'nested-keys': LIMITS.argument_max_keys,
      deep: LIMITS.argument_max_depth,
      string: LIMITS.argument_max_bytes,
      // Seven bytes a number ("123456,").
      array: Math.floor(LIMITS.argument_max_bytes / 7),
    }[shape];
    return hugeSizeArb(limit).map((size): FrameSpec => ({
      t: 'huge-arguments',
      method,
      shape,
      size,
    }));
  });

/** Batches around limits.batch_max_requests long (and the review's 30,000 tools/list). */
export const longBatchArb: fc.Arbitrary<FrameSpec> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        method: fc.constantFrom<'ping' | 'tools/list'>('ping', 'tools/list'),
        length: fc.integer({
          min: LIMITS.batch_max_requests - 2,
          max: LIMITS.batch_max_requests * 3,
        }),
      })
      .map(({ method, length }): FrameSpec => ({ t: 'long-batch', method, length })),
  },
  {
    weight: 1,
    arbitrary: fc.constant<FrameSpec>({ t: 'long-batch', method: 'tools/list', length: 30_000 }),
  },
);

/** initialize with large capabilities or clientInfo: many keys, a long text, around the stored-metadata limit and far past it. */
export const bigInitializeArb: fc.Arbitrary<FrameSpec> = fc
  .record({
    member: fc.constantFrom<'capabilities' | 'clientInfo'>('capabilities', 'clientInfo'),
    keys: fc.integer({ min: 0, max: 20_000 }),
    text: fc.oneof(
      fc.integer({ min: 0, max: 2 * LIMITS.session_metadata_bytes }),
      fc.integer({ min: 0, max: 3 * 1024 * 1024 }),
    ),
  })
  .map(({ member, keys, text }): FrameSpec => ({ t: 'big-initialize', member, keys, text }));

/** Only huge frames: arguments, long batches and large initialize payloads. */
export const hugeFrameArb: fc.Arbitrary<FrameSpec> = fc.oneof(
  { weight: 3, arbitrary: hugeArgumentsArb },
  { weight: 2, arbitrary: longBatchArb },
  { weight: 2, arbitrary: bigInitializeArb },
);

function manyKeys(count: number, prefix: string): string {
  const members: string[] = [];
  for (let i = 0; i < count; i++) members.push(`"${prefix}${i}":0`);
  return members.join(',');
}

function hugeArgumentsText(shape: HugeShape, size: number): string {
  switch (shape) {
    case 'keys':
      return `{"zz_unknown":1,${manyKeys(size, 'k')}}`;
    case 'nested-keys': {
      const part = Math.ceil(size / 10);
      const groups = Array.from({ length: 10 }, (_, g) => `"g${g}":{${manyKeys(part, 'k')}}`);
      return `{"zz_unknown":1,${groups.join(',')}}`;
    }
    case 'deep':
      // The arguments object is level 1, each "d" one more.
      return `{"zz_unknown":1,"d":${'{"d":'.repeat(size - 2)}{}${'}'.repeat(size - 2)}}`;
    case 'string':
      return `{"zz_unknown":1,"s":"${'x'.repeat(size)}"}`;
    case 'array':
      return `{"zz_unknown":1,"a":[${new Array<string>(size).fill('123456').join(',')}]}`;
  }
}

function bigInitializeText(frame: Extract<FrameSpec, { t: 'big-initialize' }>, id: number): string {
  const filler = `${manyKeys(frame.keys, 'x')}${frame.keys > 0 ? ',' : ''}"text":"${'y'.repeat(frame.text)}"`;
  const capabilities = frame.member === 'capabilities' ? `{${filler}}` : '{}';
  const clientInfo =
    frame.member === 'clientInfo'
      ? `{"name":"fuzz","version":"1",${filler}}`
      : '{"name":"fuzz","version":"1"}';
  return `{"jsonrpc":"2.0","id":"init-${id}","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":${capabilities},"clientInfo":${clientInfo}}}`;
}

// ---------------------------------------------------------------- frames

export interface FrameWeights {
  single: number;
  batch: number;
  junk: number;
}

export function frameArb(mode: FuzzMode, weights: FrameWeights): fc.Arbitrary<FrameSpec> {
  const message = messageArb(mode);
  const batchItem = fc.oneof(
    { weight: 5, arbitrary: message },
    { weight: 1, arbitrary: junkItemArb.map((raw): BatchItem => ({ t: 'junk', raw })) },
  );
  const batch = fc.oneof(
    { weight: 6, arbitrary: fc.array(batchItem, { minLength: 1, maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constant<BatchItem[]>([]) },
    {
      weight: 2,
      arbitrary: fc.array(notificationArb(mode) as fc.Arbitrary<BatchItem>, {
        minLength: 1,
        maxLength: 8,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.array(responseMessageArb as fc.Arbitrary<BatchItem>, {
        minLength: 1,
        maxLength: 5,
      }),
    },
  );
  const junk = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .record({ msg: message, keep: fc.double({ min: 0, max: 1, noNaN: true }) })
        .map(({ msg, keep }): FrameSpec => ({ t: 'truncated', msg, keep })),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({
          msg: message,
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          bytes: invalidUtf8Arb,
        })
        .map(({ msg, at, bytes }): FrameSpec => ({ t: 'bad-utf8', msg, at, bytes })),
    },
    {
      weight: 3,
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 255 }), { maxLength: 300 })
        .map((bytes): FrameSpec => ({ t: 'bytes', bytes })),
    },
    { weight: 3, arbitrary: junkTextArb.map((text): FrameSpec => ({ t: 'text', text })) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          shape: fc.constantFrom<DeepShape>('array', 'object', 'mixed'),
          depth: depthArb,
          truncate: fc.boolean(),
        })
        .map((deep): FrameSpec => ({ t: 'deep', ...deep })),
    },
    { weight: 1, arbitrary: message.map((msg): FrameSpec => ({ t: 'bom', msg })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(message, message)
        .map(([first, second]): FrameSpec => ({ t: 'concat', first, second })),
    },
  );
  return fc.oneof(
    {
      weight: weights.single,
      arbitrary: fc
        .record({ msg: message, before: whitespaceArb, after: whitespaceArb })
        .map(({ msg, before, after }): FrameSpec => ({ t: 'single', msg, before, after })),
    },
    {
      weight: weights.batch,
      arbitrary: fc
        .record({ items: batch, space: whitespaceArb })
        .map(({ items, space }): FrameSpec => ({ t: 'batch', items, space })),
    },
    { weight: weights.junk, arbitrary: junk },
  );
}

/** How many JSON-RPC messages a frame carries (a batch: its elements; anything else: one). */
export function messageCount(frame: FrameSpec): number {
  if (frame.t === 'long-batch') return frame.length;
  return frame.t === 'batch' ? Math.max(frame.items.length, 1) : 1;
}

// ---------------------------------------------------------------- materialization

/** Hands out the numbers that make valid ids unique across a whole test file. */
export class IdCounter {
  private n = 0;
  next(): number {
    return ++this.n;
  }
}

function idText(spec: IdSpec, n: number): string {
  switch (spec.t) {
    case 'bad':
      return spec.raw;
    case 'str':
      // The last '#' is followed by the unique number: no two ids can be equal.
      return json(`${spec.prefix}#${n}${'x'.repeat(spec.pad)}`);
    case 'int': {
      const v = 1_000_000 + n;
      switch (spec.form) {
        case 'plain':
          return String(v);
        case 'negative':
          return `-${v}`;
        case 'point-zero':
          return `${v}.0`;
        case 'exponent':
          return n % 2 === 0 ? `${v}e0` : `${v}E+00`;
        case 'max-safe':
          return String(Number.MAX_SAFE_INTEGER - n);
      }
    }
  }
}

export function messageText(spec: MessageSpec, ids: IdCounter): string {
  const members: Array<[string, string]> = [];
  if (spec.jsonrpc !== undefined) members.push(['jsonrpc', spec.jsonrpc]);
  if (spec.id !== undefined) members.push(['id', idText(spec.id, ids.next())]);
  if (spec.method !== undefined) members.push(['method', spec.method]);
  if (spec.params !== undefined) members.push(['params', spec.params]);
  if (spec.result !== undefined) members.push(['result', spec.result]);
  if (spec.error !== undefined) members.push(['error', spec.error]);
  members.push(...spec.extra);
  const shift = members.length === 0 ? 0 : spec.rotate % members.length;
  return objectText([...members.slice(shift), ...members.slice(0, shift)]);
}

function itemText(item: BatchItem, ids: IdCounter): string {
  return item.t === 'junk' ? item.raw : messageText(item, ids);
}

/** The wire bytes of a frame (without the stdio newline). */
export function materialize(frame: FrameSpec, ids: IdCounter): Buffer {
  switch (frame.t) {
    case 'single':
      return Buffer.from(frame.before + messageText(frame.msg, ids) + frame.after);
    case 'batch':
      return Buffer.from(
        `[${frame.space}${frame.items.map((item) => itemText(item, ids)).join(`,${frame.space}`)}]`,
      );
    case 'truncated': {
      const text = messageText(frame.msg, ids);
      return Buffer.from(text.slice(0, Math.floor(frame.keep * (text.length - 1))));
    }
    case 'bad-utf8': {
      const bytes = Buffer.from(messageText(frame.msg, ids));
      const at = Math.floor(frame.at * bytes.length);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(frame.bytes), bytes.subarray(at)]);
    }
    case 'bytes':
      return Buffer.from(frame.bytes);
    case 'text':
      return Buffer.from(frame.text);
    case 'deep': {
      const text = deepText(frame.shape, frame.depth);
      return Buffer.from(frame.truncate ? text.slice(0, Math.ceil(text.length / 2)) : text);
    }
    case 'bom':
      return Buffer.from(`\ufeff${messageText(frame.msg, ids)}`);
    case 'concat':
      return Buffer.from(messageText(frame.first, ids) + messageText(frame.second, ids));
    case 'huge-arguments': {
      const params = `{"name":${json(HUGE_TARGETS[frame.method])},"arguments":${hugeArgumentsText(frame.shape, frame.size)}}`;
      return Buffer.from(
        `{"jsonrpc":"2.0","id":"huge-${ids.next()}","method":${json(frame.method)},"params":${params}}`,
      );
    }
    case 'long-batch': {
      const items = Array.from(
        { length: frame.length },
        () => `{"jsonrpc":"2.0","id":${ids.next()},"method":${json(frame.method)}}`,
      );
      return Buffer.from(`[${items.join(',')}]`);
    }
    case 'big-initialize':
      return Buffer.from(bigInitializeText(frame, ids.next()));
  }
}

/** stdio frames are lines: a newline byte inside one would split it, so it becomes a space. */
export function asLine(bytes: Buffer): Buffer {
  const line = Buffer.from(bytes);
  for (let i = 0; i < line.length; i++) if (line[i] === 0x0a) line[i] = 0x20;
  return line;
}
