import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { PromptRegistry } from '../prompts/prompt.registry';
import { RegisteredPrompt } from '../prompts/registered-prompt';

/**
 * The prompt registry, looked up once wherever PromptsModule sits in the
 * graph, for the same reason as GovernedTools: PromptsModule depends on
 * governance's VisibilityPolicy, so governance does not import it.
 */
@Injectable()
export class GovernedPrompts {
  private registry?: PromptRegistry | null;

  constructor(private readonly moduleRef: ModuleRef) {}

  get(name: string): RegisteredPrompt | undefined {
    return this.lookup()?.get(name);
  }

  private lookup(): PromptRegistry | undefined {
    if (this.registry === undefined) {
      try {
        this.registry = this.moduleRef.get(PromptRegistry, { strict: false });
      } catch {
        // No PromptsModule in this graph: there are no prompts to govern.
        this.registry = null;
      }
    }
    return this.registry ?? undefined;
  }
}
