import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { parseCompletionParams } from './completion-params';

const VALID = {
  ref: { type: 'ref/prompt', name: 'plan_restock' },
  argument: { name: 'warehouse', value: 'we' },
};

function fieldOf(params: Record<string, unknown>): unknown {
  try {
    parseCompletionParams(params);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe(ErrorCode.InvalidParams);
    return (err as GatewayError).data.field;
  }
  throw new Error('expected the params to be rejected');
}

describe('parseCompletionParams', () => {
  it('reads a prompt reference, with no context', () => {
    expect(parseCompletionParams(VALID)).toEqual({ ...VALID, context: {} });
  });

  it('reads a resource template reference and the context arguments', () => {
    expect(
      parseCompletionParams({
        ref: { type: 'ref/resource', uri: 'skill://{category}/{name}' },
        argument: { name: 'name', value: '' },
        context: { arguments: { category: 'orders' } },
      }),
    ).toEqual({
      ref: { type: 'ref/resource', uri: 'skill://{category}/{name}' },
      argument: { name: 'name', value: '' },
      context: { category: 'orders' },
    });
    expect(parseCompletionParams({ ...VALID, context: {} }).context).toEqual({});
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no ref', { argument: VALID.argument }, 'ref'],
    ['a ref of another type', { ...VALID, ref: { type: 'ref/tool', name: 'x' } }, 'ref.type'],
    ['a prompt ref without a name', { ...VALID, ref: { type: 'ref/prompt' } }, 'ref.name'],
    [
      'a resource ref without a uri',
      { ...VALID, ref: { type: 'ref/resource', uri: 5 } },
      'ref.uri',
    ],
    ['no argument', { ref: VALID.ref }, 'argument'],
    ['an argument without a name', { ...VALID, argument: { value: 'x' } }, 'argument.name'],
    ['a numeric value', { ...VALID, argument: { name: 'a', value: 3 } }, 'argument.value'],
    ['a context that is a list', { ...VALID, context: [] }, 'context'],
    [
      'context.arguments as a string',
      { ...VALID, context: { arguments: 'x' } },
      'context.arguments',
    ],
    [
      'a non-string context argument',
      { ...VALID, context: { arguments: { horizonDays: 30 } } },
      'context.arguments.horizonDays',
    ],
  ])('refuses %s with -32602 naming the field', (_what, params, field) => {
    expect(fieldOf(params)).toBe(field);
  });
});
