import { LineBlockStream } from './line-block.stream';

function target() {
  const blocks: string[] = [];
  let syncFlushes = 0;
  return {
    blocks,
    syncFlushes: () => syncFlushes,
    write: (block: string) => blocks.push(block),
    flushSync: () => void syncFlushes++,
  };
}

describe('LineBlockStream', () => {
  it('hands lines on in one block once they reach the block size, in order', () => {
    const out = target();
    const stream = new LineBlockStream(out, 10);
    stream.write('aaa\n');
    stream.write('bbb\n');
    expect(out.blocks).toEqual([]);
    stream.write('ccc\n');
    expect(out.blocks).toEqual(['aaa\nbbb\nccc\n']);
    stream.write('ddd\n');
    expect(out.blocks).toHaveLength(1);
  });

  it('flush() hands on what has gathered, and nothing when nothing has', () => {
    const out = target();
    const stream = new LineBlockStream(out, 4096);
    stream.flush();
    stream.write('one\n');
    stream.flush();
    stream.flush();
    expect(out.blocks).toEqual(['one\n']);
  });

  it('flushSync() writes the rest through the target synchronously, and survives a closed target', () => {
    const out = target();
    const stream = new LineBlockStream(out, 4096);
    stream.write('last\n');
    stream.flushSync();
    expect(out.blocks).toEqual(['last\n']);
    expect(out.syncFlushes()).toBe(1);

    const closed = new LineBlockStream(
      {
        write: () => {
          throw new Error('SonicBoom destroyed');
        },
        flushSync: () => undefined,
      },
      4096,
    );
    closed.write('lost\n');
    expect(() => closed.flushSync()).not.toThrow();
  });
});
