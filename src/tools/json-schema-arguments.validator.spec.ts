import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { compileArgumentsSchema } from './json-schema-arguments.validator';

const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
      required: ['city'],
    },
  },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
  required: ['name'],
  additionalProperties: false,
};

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof GatewayError))
    throw new Error(`expected a GatewayError, got ${String(err)}`);
  return err;
}

describe('compileArgumentsSchema', () => {
  const check = compileArgumentsSchema('fx_schema', SCHEMA);

  it('accepts arguments the schema accepts, unchanged', async () => {
    const args = { name: 'Ada', address: { city: 'London' } };
    await expect(check(args)).resolves.toBe(args);
  });

  it('refuses with -32602 naming every failing field by its dotted path', async () => {
    const err = await failure(check({ address: { city: 5 }, extra: true }));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toMatch(/^Invalid arguments for tool fx_schema: /);
    expect(err.data).toEqual({
      tool: 'fx_schema',
      errors: expect.arrayContaining([
        { field: 'name', problems: [expect.stringContaining('required')] },
        { field: 'extra', problems: ['property should not exist'] },
        { field: 'address.city', problems: ['must be string'] },
      ]),
    });
  });

  it('coerces nothing', async () => {
    const err = await failure(check({ name: 42 }));
    expect(err.data).toMatchObject({ errors: [{ field: 'name', problems: ['must be string'] }] });
  });

  it('stops the start-up for a schema that is not an object schema, of another dialect, or broken', () => {
    expect(() => compileArgumentsSchema('t', { type: 'string' })).toThrow(
      'Tool "t": inputSchema must describe an object',
    );
    expect(() =>
      compileArgumentsSchema('t', {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
      }),
    ).toThrow(/draft-07.*is not supported/);
    expect(() =>
      compileArgumentsSchema('t', { type: 'object', properties: { a: { $ref: '#/$defs/none' } } }),
    ).toThrow('Tool "t": inputSchema does not compile');
  });
});
