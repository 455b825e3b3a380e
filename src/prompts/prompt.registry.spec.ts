import { PromptOptions } from './prompt-options';
import { PromptRegistry } from './prompt.registry';
import { RegisteredPrompt } from './registered-prompt';

function prompt(
  options: Partial<PromptOptions> & { name: string },
  origin: string,
): RegisteredPrompt {
  const full: PromptOptions = { description: `prompt ${options.name}`, ...options };
  return {
    name: full.name,
    options: full,
    origin,
    render: () => Promise.resolve([]),
  };
}

describe('PromptRegistry', () => {
  it('keeps prompts in registration order and finds them by name', () => {
    const registry = new PromptRegistry();
    registry.register(prompt({ name: 'b_second' }, 'A.b'));
    registry.register(prompt({ name: 'a-first' }, 'A.a'));

    expect(registry.size).toBe(2);
    expect(registry.list().map((p) => p.name)).toEqual(['b_second', 'a-first']);
    expect(registry.get('a-first')?.origin).toBe('A.a');
    expect(registry.get('missing')).toBeUndefined();
  });

  it('refuses a duplicate name, naming both declarations', () => {
    const registry = new PromptRegistry();
    registry.register(prompt({ name: 'summarize' }, 'FirstCapability.summarize'));

    expect(() =>
      registry.register(prompt({ name: 'summarize' }, 'SecondCapability.digest')),
    ).toThrow(
      'Duplicate prompt name "summarize": declared by FirstCapability.summarize and SecondCapability.digest',
    );
    expect(registry.size).toBe(1);
    expect(registry.get('summarize')?.origin).toBe('FirstCapability.summarize');
  });

  it.each(['', 'has.dot', 'has space', 'x'.repeat(65), 'slash/name', 'ünïcode'])(
    'refuses the name %j',
    (name) => {
      const registry = new PromptRegistry();
      expect(() => registry.register(prompt({ name }, 'C.m'))).toThrow(
        `Invalid prompt name "${name}" (C.m)`,
      );
      expect(registry.size).toBe(0);
    },
  );

  it('accepts names up to 64 characters of letters, digits, _ and -', () => {
    const registry = new PromptRegistry();
    const name = `A-z_0${'9'.repeat(59)}`;
    registry.register(prompt({ name }, 'C.m'));
    expect(registry.get(name)?.name).toHaveLength(64);
  });

  it('refuses an argument declared twice or without a name', () => {
    const registry = new PromptRegistry();
    expect(() =>
      registry.register(
        prompt(
          { name: 'p', arguments: [{ name: 'sku' }, { name: 'qty' }, { name: 'sku' }] },
          'C.p',
        ),
      ),
    ).toThrow('Prompt "p" (C.p) declares the argument "sku" twice');
    expect(() =>
      registry.register(prompt({ name: 'q', arguments: [{ name: '' }] }, 'C.q')),
    ).toThrow('Prompt "q" (C.q) has an argument without a name');
    expect(registry.size).toBe(0);
  });
});
