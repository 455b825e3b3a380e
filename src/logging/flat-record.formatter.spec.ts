import fc from 'fast-check';
import pino from 'pino';
import { FlatRecordFormatter } from './flat-record.formatter';
import { GatewayLogger } from './gateway-logger';

/** The line pino itself writes for `record` under `context`, with the gateway's options. */
function pinoLine(record: Record<string, unknown>, context: string): string {
  let line = '';
  const logger = pino(
    { level: 'info', base: { pid: process.pid }, timestamp: () => ',"time":"T"' },
    { write: (text: string) => void (line = text) },
  );
  logger.child({ context }).info(record);
  return line;
}

/** The line the gateway's logger writes for `record`, with its time replaced by "T". */
function gatewayLine(record: Record<string, unknown>, context: string): string {
  let line = '';
  const logger = new GatewayLogger(
    { level: 'info', format: 'json' },
    { write: (text: string) => void (line = text) },
  );
  logger.log(record, context);
  return line.replace(/,"time":"[^"]*"/, ',"time":"T"');
}

// Strings without lone surrogates: pino before Node 25 writes those raw, JSON.stringify escapes them.
const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary-ascii' }));
const scalar = fc.oneof(
  text,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const key = text.filter((k) => k !== 'err' && k !== '__proto__');
const flatRecord = fc
  .tuple(text, fc.dictionary(key, fc.oneof(scalar, fc.dictionary(key, scalar))))
  .map(([msg, fields]): Record<string, unknown> => ({ msg, ...fields }))
  .filter((record) => !(record.method && record.headers && record.socket));

describe('FlatRecordFormatter', () => {
  it('writes every flat record exactly as pino does', () => {
    const formatter = new FlatRecordFormatter();
    fc.assert(
      fc.property(flatRecord, text, (record, context) => {
        expect(formatter.fields(record)).toBeDefined();
        expect(gatewayLine(record, context)).toBe(pinoLine(record, context));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the governance decision line as pino does', () => {
    const record = {
      msg: 'governance decision',
      client: 'client "a"\n',
      method: 'tools/call',
      target: 'orders_get',
      decision: 'allow',
      reason: 'within_quota',
      remaining: { calls_minute: 59, calls_day: Infinity, budget: 12.5, none: undefined },
    };
    expect(gatewayLine(record, 'Governance')).toBe(pinoLine(record, 'Governance'));
  });

  it.each([
    ['an Error', { msg: 'm', cause: new Error('boom') }],
    ['an array', { msg: 'm', methods: ['a', 'b'] }],
    ['an object two levels deep', { msg: 'm', a: { b: { c: 1 } } }],
    ['an object with toJSON', { msg: 'm', at: { toJSON: () => 'x' } }],
    ['an err field', { msg: 'm', err: { message: 'x', stack: 'y' } }],
    ['a function', { msg: 'm', setHeader: () => undefined }],
    ['a bigint', { msg: 'm', n: 10n }],
    ['an HTTP request look-alike', { msg: 'm', method: 'GET', headers: 'h', socket: 's' }],
  ])('leaves a record holding %s to pino', (_name, record: Record<string, unknown>) => {
    expect(new FlatRecordFormatter().fields(record)).toBeUndefined();
    expect(gatewayLine(record, 'Ctx')).toBe(pinoLine(record, 'Ctx'));
  });
});
