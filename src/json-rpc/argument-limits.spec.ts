import { ArgumentLimits, findArgumentLimitBreach } from './argument-limits';

const LOOSE: ArgumentLimits = {
  argument_max_keys: 1_000_000,
  argument_max_depth: 1_000_000,
  argument_max_bytes: 1024 * 1024 * 1024,
};

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

describe('findArgumentLimitBreach', () => {
  describe('argument_max_keys', () => {
    const limits = { ...LOOSE, argument_max_keys: 3 };

    it('accepts exactly the maximum, nested keys and keys inside arrays counted', () => {
      expect(findArgumentLimitBreach({ a: 1, b: { c: 2 } }, limits)).toBeUndefined();
      expect(findArgumentLimitBreach({ a: [{ b: 1 }, { c: 2 }] }, limits)).toBeUndefined();
    });

    it('refuses one key more, wherever it is', () => {
      const expected = { limit: 'argument_max_keys', max: 3 };
      expect(findArgumentLimitBreach({ a: 1, b: 2, c: 3, d: 4 }, limits)).toEqual(expected);
      expect(findArgumentLimitBreach({ a: { b: { c: { d: 1 } } } }, limits)).toEqual(expected);
      expect(findArgumentLimitBreach([{ a: 1, b: 2 }, [{ c: 3, d: 4 }]], limits)).toEqual(expected);
    });

    it('does not count array elements as keys', () => {
      expect(findArgumentLimitBreach({ list: [1, 2, 3, 4, 5, 6] }, limits)).toBeUndefined();
    });

    it('stops at the limit on 300,000 keys', () => {
      const huge: Record<string, number> = {};
      for (let i = 0; i < 300_000; i++) huge[`k${i}`] = i;
      expect(findArgumentLimitBreach(huge, { ...LOOSE, argument_max_keys: 10_000 })).toEqual({
        limit: 'argument_max_keys',
        max: 10_000,
      });
    });
  });

  describe('argument_max_depth', () => {
    it('counts objects and arrays alike, the value itself as level 1', () => {
      const limits = { ...LOOSE, argument_max_depth: 4 };
      expect(findArgumentLimitBreach(nested(3, {}), limits)).toBeUndefined();
      expect(findArgumentLimitBreach(nested(3, []), limits)).toBeUndefined();
      expect(findArgumentLimitBreach(nested(4, {}), limits)).toEqual({
        limit: 'argument_max_depth',
        max: 4,
      });
      expect(findArgumentLimitBreach(nested(4, [1]), limits)).toEqual({
        limit: 'argument_max_depth',
        max: 4,
      });
      // Scalars add no level.
      expect(findArgumentLimitBreach(nested(4, 'leaf'), limits)).toBeUndefined();
    });

    it('measures 100,000 levels without overflowing the stack', () => {
      const deep = nested(100_000);
      expect(findArgumentLimitBreach(deep, LOOSE)).toBeUndefined();
      expect(findArgumentLimitBreach(deep, { ...LOOSE, argument_max_depth: 32 })).toEqual({
        limit: 'argument_max_depth',
        max: 32,
      });
    });
  });

  describe('argument_max_bytes', () => {
    // Exactness against JSON.stringify for every kind of value is bounded-json-size.spec's.
    it('accepts the exact JSON size and refuses one byte less', () => {
      const value = { a: [1, [2, { b: [] }], {}], c: { d: { e: 'f' } }, s: 'a"b\\c\n' };
      const size = bytesOf(value);
      expect(
        findArgumentLimitBreach(value, { ...LOOSE, argument_max_bytes: size }),
      ).toBeUndefined();
      expect(findArgumentLimitBreach(value, { ...LOOSE, argument_max_bytes: size - 1 })).toEqual({
        limit: 'argument_max_bytes',
        max: size - 1,
      });
    });

    it('counts strings in UTF-8 bytes, not characters', () => {
      const value = { s: '€'.repeat(100) };
      // 100 characters, 300 bytes, plus {"s":""} (8 bytes).
      expect(findArgumentLimitBreach(value, { ...LOOSE, argument_max_bytes: 307 })).toEqual({
        limit: 'argument_max_bytes',
        max: 307,
      });
      expect(findArgumentLimitBreach(value, { ...LOOSE, argument_max_bytes: 308 })).toBeUndefined();
    });

    it('refuses one long string', () => {
      const value = { text: 'x'.repeat(2 * 1024 * 1024) };
      expect(findArgumentLimitBreach(value, { ...LOOSE, argument_max_bytes: 1024 * 1024 })).toEqual(
        { limit: 'argument_max_bytes', max: 1024 * 1024 },
      );
    });
  });

  it('accepts ordinary arguments under the default limits', () => {
    const defaults = {
      argument_max_keys: 10_000,
      argument_max_depth: 32,
      argument_max_bytes: 1024 * 1024,
    };
    expect(
      findArgumentLimitBreach({ order_id: 'ORD-1', items: [{ sku: 'A', qty: 2 }] }, defaults),
    ).toBeUndefined();
  });
});
