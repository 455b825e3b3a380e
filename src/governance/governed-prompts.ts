import { Injectable } from '@nestjs/common';
import { PromptRegistry } from '../prompts/prompt.registry';
import { RegisteredPrompt } from '../prompts/registered-prompt';

/**
 * What the governance guards read of a prompt (the tools and resources it reveals).
 * Exported by governance because the guards are built in each governed
 * method's own module, which need not see the registry.
 */
@Injectable()
export class GovernedPrompts {
  constructor(private readonly registry: PromptRegistry) {}

  get(name: string): RegisteredPrompt | undefined {
    return this.registry.get(name);
  }
}
