import { Injectable, Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test, TestingModule } from '@nestjs/testing';
import { text } from '../tools/content';
import { Capability } from '../tools/handler.decorator';
import { PromptContext } from './prompt-context';
import { PromptMessage, userMessage } from './prompt-message';
import { Prompt } from './prompt.decorator';
import { PromptExplorer } from './prompt.explorer';
import { PromptRegistry } from './prompt.registry';

@Injectable()
class Greeter {
  readonly greeting = 'Hello';
}

@Injectable()
@Capability()
class GreetingPrompts {
  constructor(private readonly greeter: Greeter) {}

  @Prompt({
    name: 'greet',
    title: 'Greet',
    description: 'Greets someone',
    arguments: [{ name: 'who', required: true, completions: ['Ada', 'Alan'] }],
  })
  greet(args: Record<string, string>, ctx: PromptContext): PromptMessage[] {
    return [userMessage(text(`${this.greeter.greeting}, ${args.who} (from ${ctx.clientId})`))];
  }

  @Prompt({ name: 'farewell', description: 'Says goodbye' })
  async farewell(): Promise<PromptMessage[]> {
    await Promise.resolve();
    return [userMessage(text('Goodbye'))];
  }

  /** Not a prompt. */
  helper(): string {
    return 'helper';
  }
}

@Injectable()
@Capability()
class MorePrompts {
  @Prompt({ name: 'greet', description: 'Greets too' })
  welcome(): PromptMessage[] {
    return [];
  }
}

/** @Prompt on a provider that is not a @Capability() is not scanned. */
@Injectable()
class UnmarkedPrompts {
  @Prompt({ name: 'unmarked', description: 'Never registered' })
  unmarked(): PromptMessage[] {
    return [];
  }
}

async function boot(...providers: Type[]): Promise<TestingModule> {
  const app = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [PromptRegistry, PromptExplorer, Greeter, ...providers],
  }).compile();
  await app.init();
  return app;
}

describe('PromptExplorer', () => {
  it('registers the @Prompt methods of @Capability() providers, bound to their instance', async () => {
    const app = await boot(GreetingPrompts, UnmarkedPrompts);
    try {
      const registry = app.get(PromptRegistry);
      expect(registry.list().map((p) => [p.name, p.origin])).toEqual([
        ['greet', 'GreetingPrompts.greet'],
        ['farewell', 'GreetingPrompts.farewell'],
      ]);
      expect(registry.get('greet')?.options.arguments?.[0]?.completions).toEqual(['Ada', 'Alan']);

      const signal = new AbortController().signal;
      await expect(
        registry.get('greet')?.render({ who: 'Grace' }, { clientId: 'c-1', signal }),
      ).resolves.toEqual([userMessage(text('Hello, Grace (from c-1)'))]);
      await expect(
        registry.get('farewell')?.render({}, { clientId: 'c-1', signal }),
      ).resolves.toEqual([userMessage(text('Goodbye'))]);
    } finally {
      await app.close();
    }
  });

  it('stops the start-up on a duplicate name, naming both methods', async () => {
    await expect(boot(GreetingPrompts, MorePrompts)).rejects.toThrow(
      /Duplicate prompt name "greet": declared by (GreetingPrompts\.greet and MorePrompts\.welcome|MorePrompts\.welcome and GreetingPrompts\.greet)/,
    );
  });
});
