import { LineBlockStream } from './line-block.stream';

/** A target that records, in order, what reached it and how. */
function target() {
  const events: string[] = [];
  return {
    events,
    write: (block: string) => events.push(`async ${block}`),
    flushSync: () => void events.push('flushSync'),
    writeSync: (block: string) => void events.push(`sync ${block}`),
  };
}

describe('LineBlockStream', () => {
  it('hands lines on in one block once they reach the block size, in order', () => {
    const out = target();
    const stream = new LineBlockStream(out, 10);
    stream.write('aaa\n');
    stream.write('bbb\n');
    expect(out.events).toEqual([]);
    stream.write('ccc\n');
    expect(out.events).toEqual(['async aaa\nbbb\nccc\n']);
    stream.write('ddd\n');
    expect(out.events).toHaveLength(1);
  });

  it('flush() hands on what has gathered, and nothing when nothing has', () => {
    const out = target();
    const stream = new LineBlockStream(out, 4096);
    stream.flush();
    stream.write('one\n');
    stream.flush();
    stream.flush();
    expect(out.events).toEqual(['async one\n']);
  });

  it('flushSync() writes what the target holds first, then the rest, both synchronously', () => {
    const out = target();
    const stream = new LineBlockStream(out, 4096);
    stream.write('last\n');
    stream.flushSync();
    // Never through write(): an asynchronous write started at exit would never finish.
    expect(out.events).toEqual(['flushSync', 'sync last\n']);
    stream.flushSync();
    expect(out.events).toEqual(['flushSync', 'sync last\n', 'flushSync']);
  });

  it('flushSync() survives a target that is closed already', () => {
    const stream = new LineBlockStream(
      {
        write: () => undefined,
        flushSync: () => {
          throw new Error('SonicBoom destroyed');
        },
        writeSync: () => undefined,
      },
      4096,
    );
    stream.write('lost\n');
    expect(() => stream.flushSync()).not.toThrow();
  });
});
