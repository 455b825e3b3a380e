import { requestScope, RequestScope } from '../observability/request-scope';
import { GatewayLogger } from './gateway-logger';

const SCOPE: RequestScope = {
  requestId: '7',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  sampled: false,
  method: 'tools/call',
  clientId: 'c1',
  sessionId: 's1',
};

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

  it('writes level, time, pid and context first, then msg, then the fields', () => {
    const { logger, lines } = capture();
    logger.log({ client: 'c1', msg: 'm', remaining: { calls: 3 } }, 'Ctx');
    expect(Object.keys(JSON.parse(lines[0]) as object)).toEqual([
      'level',
      'time',
      'pid',
      'context',
      'msg',
      'client',
      'remaining',
    ]);
    expect(lines[0]).toMatch(/^\{"level":30,"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",/);
    expect(lines[0].endsWith('}\n')).toBe(true);
  });

  it('drops undefined arguments, as Nest passes for an error without a stack', () => {
    const { logger, parsed } = capture();
    logger.error('no stack', undefined, 'Ctx');
    logger.error({ msg: 'no stack either' }, undefined);
    expect(parsed()[0]).toEqual(expect.objectContaining({ msg: 'no stack', context: 'Ctx' }));
    expect(parsed()[0]).not.toHaveProperty('details');
    expect(parsed()[1]).not.toHaveProperty('details');
  });

  it('writes pretty lines with the level name and context', () => {
    const lines: string[] = [];
    const logger = new GatewayLogger(
      { level: 'info', format: 'pretty' },
      { write: (line: string) => void lines.push(line) },
    );
    logger.warn({ msg: 'slow', ms: 12 }, 'Ctx');
    expect(lines).toEqual([expect.stringMatching(/^\S+Z WARN \[Ctx\] slow \{"ms":12\}\n$/)]);
  });

  describe('inside a request', () => {
    it("appends the request's ids to every line, after its own fields", async () => {
      const { logger, lines } = capture();
      await requestScope.run(SCOPE, async () => {
        await Promise.resolve();
        logger.log({ msg: 'deep inside', stage: 'x' }, 'Governance');
      });
      expect(Object.keys(JSON.parse(lines[0]) as object)).toEqual([
        'level',
        'time',
        'pid',
        'context',
        'msg',
        'stage',
        'requestId',
        'traceId',
        'spanId',
        'sessionId',
        'clientId',
      ]);
      expect(JSON.parse(lines[0])).toMatchObject({
        requestId: '7',
        traceId: SCOPE.traceId,
        spanId: SCOPE.spanId,
        sessionId: 's1',
        clientId: 'c1',
      });
    });

    it('never overwrites an id the line names itself', () => {
      const { logger, parsed } = capture();
      requestScope.run(SCOPE, () => logger.warn({ msg: 'other', requestId: 'upstream-9' }, 'Ctx'));
      expect(parsed()[0]).toMatchObject({ requestId: 'upstream-9', traceId: SCOPE.traceId });
    });

    it("leaves the writer's own object as it was", () => {
      const { logger, parsed } = capture();
      const kept = { msg: 'kept', stage: 'x' };
      requestScope.run(SCOPE, () => logger.log(kept, 'Ctx'));
      logger.log(kept, 'Ctx');
      expect(kept).toEqual({ msg: 'kept', stage: 'x' });
      expect(parsed()[0].traceId).toBe(SCOPE.traceId);
      expect(parsed()[1]).not.toHaveProperty('traceId');
    });

    it('adds nothing outside a request', () => {
      const { logger, parsed } = capture();
      requestScope.run(SCOPE, () => undefined);
      logger.log({ msg: 'startup' }, 'Ctx');
      expect(parsed()[0]).not.toHaveProperty('traceId');
      expect(parsed()[0]).not.toHaveProperty('requestId');
    });

    it('keeps the ids of concurrent requests apart', async () => {
      const { logger, parsed } = capture();
      const serve = (requestId: string, traceId: string) =>
        requestScope.run({ ...SCOPE, requestId, traceId }, async () => {
          await new Promise((resolve) => setImmediate(resolve));
          logger.log({ msg: requestId }, 'Ctx');
        });
      await Promise.all([serve('a', 'a'.repeat(32)), serve('b', 'b'.repeat(32))]);
      for (const line of parsed()) expect(line.traceId).toBe(String(line.msg).repeat(32));
    });
  });
});
