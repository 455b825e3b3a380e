import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { PromptOptions } from './prompt-options';
import { ArgumentError, validatePromptArguments } from './prompt-arguments.validator';

const PROMPT: PromptOptions = {
  name: 'plan',
  description: 'Plans',
  arguments: [
    { name: 'warehouse', required: true },
    { name: 'horizon', required: false },
    { name: 'note' },
  ],
};

function rejection(args: unknown, prompt: PromptOptions = PROMPT): GatewayError {
  try {
    validatePromptArguments(prompt, args);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected the arguments to be rejected');
}

const fields = (err: GatewayError) => (err.data.errors as ArgumentError[]).map((e) => e.field);

describe('validatePromptArguments', () => {
  it('returns the given string arguments unchanged', () => {
    expect(validatePromptArguments(PROMPT, { warehouse: 'west', note: '' })).toEqual({
      warehouse: 'west',
      note: '',
    });
  });

  it('treats absent arguments as none', () => {
    const noArgs: PromptOptions = { name: 'hello', description: 'Says hello' };
    expect(validatePromptArguments(noArgs, undefined)).toEqual({});
    expect(validatePromptArguments(noArgs, null)).toEqual({});
    expect(validatePromptArguments({ ...PROMPT, arguments: [{ name: 'x' }] }, undefined)).toEqual(
      {},
    );
  });

  it('names a missing required argument', () => {
    const err = rejection({ horizon: '30' });
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toBe(
      'Invalid arguments for prompt plan: warehouse: required argument is missing',
    );
    expect(err.data).toEqual({
      prompt: 'plan',
      errors: [{ field: 'warehouse', problems: ['required argument is missing'] }],
    });
  });

  it('names the required arguments when none are given at all', () => {
    for (const args of [undefined, null, {}]) {
      expect(fields(rejection(args))).toEqual(['warehouse']);
    }
  });

  it('names an unknown argument', () => {
    const err = rejection({ warehouse: 'west', colour: 'red' });
    expect(err.message).toBe('Invalid arguments for prompt plan: colour: unknown argument');
    expect(fields(err)).toEqual(['colour']);
  });

  it.each([
    [30, 'number'],
    [true, 'boolean'],
    [null, 'null'],
    [['west'], 'array'],
    [{ id: 'west' }, 'object'],
  ])('refuses the non-string value %j', (value, type) => {
    const err = rejection({ warehouse: value });
    expect(err.data.errors).toEqual([
      { field: 'warehouse', problems: [`must be a string, got ${type}`] },
    ]);
  });

  it('reports every problem at once', () => {
    const err = rejection({ horizon: 7, extra: 'x', other: 'y' });
    expect(fields(err).sort()).toEqual(['extra', 'horizon', 'other', 'warehouse']);
    for (const field of ['extra', 'horizon', 'other', 'warehouse']) {
      expect(err.message).toContain(`${field}: `);
    }
  });

  it.each([['a string'], [['warehouse']], [42]])('refuses arguments that are %j', (args) => {
    const err = rejection(args);
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.data).toEqual({ prompt: 'plan', field: 'arguments' });
  });

  it('does not mistake inherited properties for arguments', () => {
    const withProto: PromptOptions = {
      name: 'p',
      description: 'd',
      arguments: [{ name: 'toString' }],
    };
    expect(validatePromptArguments(withProto, {})).toEqual({});
    expect(fields(rejection(JSON.parse('{"__proto__": "x"}'), withProto))).toEqual(['__proto__']);
  });
});
