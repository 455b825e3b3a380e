import { boundedJsonSize, measureJson } from './bounded-json-size';

const exact = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

describe('boundedJsonSize', () => {
  it.each([
    ['null', null],
    ['booleans and numbers', [true, false, 0, -1.5, 1e21, 123456789, NaN, Infinity]],
    ['an empty object and array', { a: {}, b: [] }],
    ['escapes', { 'q"k\\': 'line\nbreak\ttab\u0001\u001f"\\/' }],
    ['multi-byte text', { name: 'é日本語🦉', ключ: '\u2028\u2029\u07ff\u0800' }],
    ['lone surrogates', ['\ud800', 'a\udc00b', '\udbff\udfff']],
    ['undefined members and array holes', { a: undefined, b: [undefined, () => 1], c: 1 }],
    [
      'a nested client payload',
      {
        capabilities: { roots: { listChanged: true }, sampling: {}, experimental: { x: [1, 'y'] } },
        clientInfo: { name: 'claude-ai', version: '0.1.0', title: 'Claude' },
      },
    ],
  ])('counts %s exactly as JSON.stringify writes it in UTF-8', (_name, value) => {
    expect(boundedJsonSize(value, 1_000_000)).toBe(exact(value));
  });

  it('is exact at the limit and over it just past the limit', () => {
    const value = { name: 'x'.repeat(100) };
    const size = exact(value);
    expect(boundedJsonSize(value, size)).toBe(size);
    expect(boundedJsonSize(value, size - 1)).toBeGreaterThan(size - 1);
  });

  it.each([
    ['an empty object', {}],
    ['an empty array', []],
    ['scalars of every kind', { s: 'x', n: -1.5e-7, i: 42, t: true, f: false, z: null }],
    ['nested objects and arrays', { a: [1, [2, { b: [] }], {}], c: { d: { e: 'f' } } }],
    ['multi-byte text (2, 3 and 4 bytes a character)', { clé: 'é€😀', 键: ['日本'] }],
    ['characters JSON escapes', { 'q"k': 'a"b\\c\n\t\u0001', line: '\u2028' }],
    ['a lone surrogate', { s: 'a\ud800b' }],
    ['a bare string', 'plain'],
    ['a bare number', 12345],
  ])('measures %s within its exact JSON size and passes one byte less', (_name, value) => {
    const size = exact(value);
    expect(measureJson(value, { maxBytes: size })).toEqual({ bytes: size });
    expect(measureJson(value, { maxBytes: size - 1 }).passed).toBe('bytes');
  });

  it('stops early on a 3 MB string, a million keys and a very deep value', () => {
    const max = 16 * 1024;
    expect(boundedJsonSize({ blob: 'x'.repeat(3_000_000) }, max)).toBeGreaterThan(max);
    const wide: Record<string, number> = {};
    for (let i = 0; i < 1_000_000; i++) wide[`k${i}`] = i;
    expect(boundedJsonSize(wide, max)).toBeGreaterThan(max);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(boundedJsonSize(deep, max)).toBeGreaterThan(max);
    expect(boundedJsonSize(new Array(5_000_000).fill(0), max)).toBeGreaterThan(max);
  });

  it('reads no more members than fit in the limit', () => {
    let reads = 0;
    const counted: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) {
      Object.defineProperty(counted, `k${i}`, { enumerable: true, get: () => ++reads });
    }
    expect(boundedJsonSize(counted, 1024)).toBeGreaterThan(1024);
    // Each member takes at least 6 bytes ("k0":1), so past 1024 bytes the walk has stopped.
    expect(reads).toBeLessThanOrEqual(1024 / 6 + 1);
  });

  it('terminates on a cyclic value (it can only grow past the limit)', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(boundedJsonSize(cyclic, 1024)).toBeGreaterThan(1024);
  });
});
