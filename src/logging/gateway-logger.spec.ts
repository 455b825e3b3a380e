import { GatewayLogger, isoTimeOncePerMillisecond } from './gateway-logger';

/** A logger writing into an array, one parsed JSON object per line. */
function capture(level: 'info' | 'debug' = 'info') {
  const lines: string[] = [];
  const logger = new GatewayLogger(
    { level, format: 'json' },
    { write: (line: string) => void lines.push(line) },
  );
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, parsed };
}

describe('GatewayLogger', () => {
  it('writes an object with its msg as one line, with the context and every field', () => {
    const { logger, parsed } = capture();
    logger.log({ msg: 'governance decision', client: 'c1', remaining: { calls: 3 } }, 'Governance');
    expect(parsed()).toEqual([
      expect.objectContaining({
        level: 30,
        context: 'Governance',
        msg: 'governance decision',
        client: 'c1',
        remaining: { calls: 3 },
        pid: process.pid,
      }),
    ]);
    expect(typeof parsed()[0].time).toBe('string');
  });

  it('gives an object without a msg an empty message and keeps its fields', () => {
    const { logger, parsed } = capture();
    logger.warn({ stage: 'x' }, 'Ctx');
    expect(parsed()[0]).toEqual(expect.objectContaining({ msg: '', stage: 'x', context: 'Ctx' }));
  });

  it('keeps arguments between the message and the context as details', () => {
    const { logger, parsed } = capture();
    logger.error({ msg: 'failed' }, 'trace line', 'Ctx');
    expect(parsed()[0]).toEqual(
      expect.objectContaining({
        level: 50,
        msg: 'failed',
        details: ['trace line'],
        context: 'Ctx',
      }),
    );
  });

  it('logs an Error with its message and stack', () => {
    const { logger, parsed } = capture();
    logger.error(new Error('boom'), 'Ctx');
    const line = parsed()[0];
    expect(line.msg).toBe('boom');
    expect((line.err as { stack: string }).stack).toContain('boom');
  });

  it('logs a plain string, with or without a context', () => {
    const { logger, parsed } = capture();
    logger.log('hello', 'Ctx');
    logger.log('bare');
    expect(parsed()[0]).toEqual(expect.objectContaining({ msg: 'hello', context: 'Ctx' }));
    expect(parsed()[1].msg).toBe('bare');
    expect(parsed()[1]).not.toHaveProperty('context');
  });

  it('drops lines below the level without formatting them', () => {
    const { logger, lines } = capture('info');
    logger.debug({ msg: 'hidden' }, 'Ctx');
    expect(lines).toEqual([]);
  });

  it('keeps contexts apart when the same logger serves several', () => {
    const { logger, parsed } = capture();
    logger.log({ msg: 'a' }, 'First');
    logger.log({ msg: 'b' }, 'Second');
    logger.log({ msg: 'c' }, 'First');
    expect(parsed().map((line) => line.context)).toEqual(['First', 'Second', 'First']);
  });

  it('stamps lines with the ISO time of their millisecond, made once per millisecond', () => {
    let clock = Date.UTC(2026, 10, 26, 5, 30, 0, 123);
    const stamp = isoTimeOncePerMillisecond(() => clock);
    const first = stamp();
    expect(first).toBe(',"time":"2026-11-26T05:30:00.123Z"');
    expect(stamp()).toBe(first);
    clock += 1;
    expect(stamp()).toBe(',"time":"2026-11-26T05:30:00.124Z"');
  });
});
