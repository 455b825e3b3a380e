import fc from 'fast-check';
import { LineSplitter } from './line-splitter';

function collect(maxLineBytes = 1024) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const splitter = new LineSplitter(
    maxLineBytes,
    (line) => lines.push(line.toString('utf8')),
    (bytes) => oversize.push(bytes),
  );
  return { splitter, lines, oversize };
}

describe('LineSplitter', () => {
  it('buffers a partial line until its newline arrives', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('{"a":'));
    expect(lines).toEqual([]);
    splitter.push(Buffer.from('1}\n{"b":2}\n{"c"'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    splitter.push(Buffer.from(':3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('strips CR of CRLF and skips blank lines', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('one\r\n\r\n  \ntwo\n'));
    expect(lines).toEqual(['one', 'two']);
  });

  it('keeps a multi-byte character split across chunks intact', () => {
    const { splitter, lines } = collect();
    const bytes = Buffer.from('"héllo🦉"\n');
    splitter.push(bytes.subarray(0, 3));
    splitter.push(bytes.subarray(3, 9));
    splitter.push(bytes.subarray(9));
    expect(lines).toEqual(['"héllo🦉"']);
  });

  it('drops an oversize line whole, reports it once as it crosses the limit, and goes on', () => {
    const { splitter, lines, oversize } = collect(10);
    splitter.push(Buffer.from('x'.repeat(8)));
    expect(oversize).toEqual([]);
    // Reported before any newline: a peer that never sends one still gets told.
    splitter.push(Buffer.from('y'.repeat(8)));
    expect(oversize).toEqual([16]);
    splitter.push(Buffer.from('z'.repeat(8) + '\nok\n'));
    expect(oversize).toEqual([16]);
    expect(lines).toEqual(['ok']);
  });

  it('flushes a final line without newline at end of input', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('last'));
    splitter.end();
    expect(lines).toEqual(['last']);
  });

  it('yields the same lines however the stream is chunked', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .string({ minLength: 1 })
            .filter((s) => !s.includes('\n') && s.trim() === s && s.trim() !== ''),
          {
            maxLength: 20,
          },
        ),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        (expected, cuts) => {
          const { splitter, lines } = collect(1 << 20);
          const bytes = Buffer.from(expected.map((l) => `${l}\n`).join(''));
          let offset = 0;
          let i = 0;
          while (offset < bytes.length) {
            const size = cuts[i++ % cuts.length];
            splitter.push(bytes.subarray(offset, offset + size));
            offset += size;
          }
          expect(lines).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
