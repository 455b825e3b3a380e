import { formatEventId, parseEventId, SseEventLog, STANDALONE_STREAM_ID } from './sse-event-log';

describe('SseEventLog', () => {
  it('numbers the events of all streams in one sequence and replays one stream after a cursor', () => {
    const log = new SseEventLog();
    const priming = log.nextId('p1');
    const a = log.append('p1', '{"a":1}');
    log.append(STANDALONE_STREAM_ID, '{"g":1}');
    const b = log.append('p1', '{"b":2}');
    expect([priming, a.id, b.id]).toEqual(['p1/1', 'p1/2', 'p1/4']);
    expect(log.after({ streamId: 'p1', seq: 1 })?.map((e) => e.data)).toEqual([
      '{"a":1}',
      '{"b":2}',
    ]);
    expect(log.after({ streamId: 'p1', seq: 2 })?.map((e) => e.id)).toEqual(['p1/4']);
    expect(log.after({ streamId: 'p1', seq: 4 })).toEqual([]);
    expect(log.after({ streamId: 'g', seq: 0 })?.map((e) => e.id)).toEqual(['g/3']);
  });

  it('refuses a cursor ahead of the log', () => {
    const log = new SseEventLog();
    log.append('p1', 'x');
    expect(log.after({ streamId: 'p1', seq: 2 })).toBeUndefined();
  });

  it('keeps the newest events within the count bound and refuses cursors with a gap', () => {
    const log = new SseEventLog(3, 1_000_000);
    for (let i = 1; i <= 5; i++) log.append('p1', `${i}`);
    expect(log.size).toBe(3);
    // Events 1 and 2 are gone: resuming after 1 would miss 2.
    expect(log.after({ streamId: 'p1', seq: 1 })).toBeUndefined();
    expect(log.after({ streamId: 'p1', seq: 2 })?.map((e) => e.data)).toEqual(['3', '4', '5']);
  });

  it('keeps the newest events within the byte bound, and always the newest one', () => {
    const log = new SseEventLog(100, 10);
    log.append('p1', 'aaaa');
    log.append('p1', 'bbbb');
    log.append('p1', 'cccc');
    expect(log.size).toBe(2);
    log.append('p1', 'x'.repeat(50));
    expect(log.size).toBe(1);
    expect(log.after({ streamId: 'p1', seq: 3 })?.map((e) => e.data.length)).toEqual([50]);
  });
});

describe('event ids', () => {
  it('round-trip', () => {
    expect(parseEventId(formatEventId('p12', 345))).toEqual({ streamId: 'p12', seq: 345 });
    expect(parseEventId('g/7')).toEqual({ streamId: 'g', seq: 7 });
  });

  it.each(['', 'p1', 'p1/', '/3', 'p1/x', 'P1/3', 'p1/3/4', '_GET_stream::123', 'p1/-2'])(
    'rejects %p',
    (value) => {
      expect(parseEventId(value)).toBeUndefined();
    },
  );
});
