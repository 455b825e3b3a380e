import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { completionValues } from './completion-values';
import { PromptVisibility } from './prompt-visibility';
import { PromptArgumentCompleter } from './prompt-argument.completer';
import { ArgumentCompleter } from './prompt-options';
import { PromptRegistry } from './prompt.registry';

const calls: Array<{ prefix: string; context: Record<string, string> }> = [];
const skusOf: ArgumentCompleter = (prefix, context) => {
  calls.push({ prefix, context });
  return context.category === 'tents' ? ['TENT-2P', 'TENT-4P', 'TARP-S'] : ['SPORK-TI'];
};

function registry(): PromptRegistry {
  const prompts = new PromptRegistry();
  prompts.register({
    name: 'restock',
    origin: 'Fixture.restock',
    options: {
      name: 'restock',
      description: 'Restock',
      arguments: [
        { name: 'warehouse', completions: ['west', 'central', 'east'] },
        { name: 'category' },
        { name: 'sku', completions: skusOf },
        { name: 'async', completions: () => Promise.resolve(['later', 'Lately']) },
        {
          name: 'broken',
          completions: (() => [1, 2]) as unknown as ArgumentCompleter,
        },
      ],
    },
    render: () => Promise.resolve([]),
  });
  return prompts;
}

async function rejection(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

describe('PromptArgumentCompleter', () => {
  const completer = new PromptArgumentCompleter(registry(), new PromptVisibility());

  beforeEach(() => calls.splice(0));

  it('offers a fixed list', async () => {
    await expect(completer.candidates('restock', 'warehouse', 'w', {}, 'c')).resolves.toEqual([
      'west',
      'central',
      'east',
    ]);
  });

  it('calls a completer function with the typed value and the filled-in arguments', async () => {
    const candidates = await completer.candidates(
      'restock',
      'sku',
      'te',
      { category: 'tents' },
      'c',
    );
    expect(calls).toEqual([{ prefix: 'te', context: { category: 'tents' } }]);
    // The gateway filters whatever the function returns by the prefix.
    expect(completionValues(candidates, 'te').values).toEqual(['TENT-2P', 'TENT-4P']);
    await expect(completer.candidates('restock', 'sku', '', {}, 'c')).resolves.toEqual([
      'SPORK-TI',
    ]);
  });

  it('awaits an async completer', async () => {
    const candidates = await completer.candidates('restock', 'async', 'LATE', {}, 'c');
    expect(completionValues(candidates, 'LATE')).toEqual({
      values: ['later', 'Lately'],
      total: 2,
      hasMore: false,
    });
  });

  it('offers nothing for an argument declared without completions', async () => {
    await expect(completer.candidates('restock', 'category', 'te', {}, 'c')).resolves.toEqual([]);
  });

  it('refuses an unknown prompt with -32602', async () => {
    const err = await rejection(completer.candidates('restok', 'warehouse', '', {}, 'c'));
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Unknown prompt: restok',
      data: { prompt: 'restok' },
    });
  });

  it('refuses an unknown argument with -32602 listing the declared ones', async () => {
    const err = await rejection(completer.candidates('restock', 'colour', '', {}, 'c'));
    expect(err).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Unknown argument "colour" of prompt restock',
      data: {
        prompt: 'restock',
        argument: 'colour',
        arguments: ['warehouse', 'category', 'sku', 'async', 'broken'],
      },
    });
  });

  it('treats a completer returning non-strings as a bug of the prompt (plain Error)', async () => {
    const err = await rejection(completer.candidates('restock', 'broken', '', {}, 'c'));
    expect(err).not.toBeInstanceOf(GatewayError);
    expect(err.message).toBe(
      'Completions of restock.broken (Fixture.restock) did not return an array of strings',
    );
  });
});
