import fc from 'fast-check';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { decodeCursor, encodeCursor, paginate } from './list-cursor';

const RUNS = { numRuns: 200 };
const MAX_OFFSET = 999_999_999;

function invalidParamsOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a GatewayError, nothing was thrown');
}

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describe('list cursors', () => {
  test('encode/decode round trip for every offset', () => {
    fc.assert(
      fc.property(fc.nat({ max: MAX_OFFSET }), (offset) => {
        const cursor = encodeCursor(offset);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor)).toBe(offset);
      }),
      RUNS,
    );
  });

  test('no cursor means the first page', () => {
    expect(decodeCursor(undefined)).toBe(0);
    expect(decodeCursor(null)).toBe(0);
  });

  test('a cursor that is not a string is -32602', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string()), fc.object(), fc.double()),
        (cursor) => {
          const err = invalidParamsOf(() => decodeCursor(cursor));
          expect(err.code).toBe(ErrorCode.InvalidParams);
        },
      ),
      RUNS,
    );
  });

  test.each([
    ['empty', ''],
    ['plain words', 'not-a-cursor'],
    ['punctuation only', '!!!***'],
    ['no prefix', b64url('123')],
    ['wrong prefix', b64url('x:12')],
    ['negative offset', b64url('o:-1')],
    ['not a number', b64url('o:abc')],
    ['fractional', b64url('o:1.5')],
    ['too many digits', b64url('o:1234567890')],
    ['trailing text', b64url('o:12;drop')],
    ['json', b64url('{"offset":3}')],
  ])('a garbage cursor (%s) is -32602 naming the cursor field', (_label, cursor) => {
    const err = invalidParamsOf(() => decodeCursor(cursor));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.data).toEqual({ field: 'cursor' });
  });

  test('base64url of any text other than o:<digits> is -32602', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }).filter((s) => !/^o:\d{1,9}$/.test(s)),
        (body) => {
          const err = invalidParamsOf(() => decodeCursor(b64url(body)));
          expect(err.code).toBe(ErrorCode.InvalidParams);
        },
      ),
      RUNS,
    );
  });

  test('any string either decodes to a valid offset or is -32602, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (cursor) => {
        let offset: number | undefined;
        try {
          offset = decodeCursor(cursor);
        } catch (err) {
          expect(err).toBeInstanceOf(GatewayError);
          expect((err as GatewayError).code).toBe(ErrorCode.InvalidParams);
          return;
        }
        expect(Number.isInteger(offset)).toBe(true);
        expect(offset).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThanOrEqual(MAX_OFFSET);
      }),
      RUNS,
    );
  });

  test('a cursor past the end of the list is -32602; the exact end is an empty last page', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 50 }), fc.nat({ max: 50 }), (all, extra) => {
        const past = encodeCursor(all.length + 1 + extra);
        expect(invalidParamsOf(() => paginate(all, past, 10)).code).toBe(ErrorCode.InvalidParams);
        expect(paginate(all, encodeCursor(all.length), 10)).toEqual({ items: [] });
      }),
      RUNS,
    );
  });
});
