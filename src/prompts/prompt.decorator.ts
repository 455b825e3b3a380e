import { SetMetadata } from '@nestjs/common';
import { PromptContext } from './prompt-context';
import { PromptOutput } from './prompt-message';
import { PromptOptions } from './prompt-options';

/*
 * A plain namespaced string key, for the reason src/tools/handler.decorator.ts
 * gives: capability modules compiled apart from the gateway may load another
 * copy of this file, and their prompts must still be found.
 */
export const PROMPT_METADATA = 'mcp:prompt';

/** The shape of a @Prompt method (arguments are validated strings). */
export type PromptMethod = (
  args: Record<string, string>,
  context: PromptContext,
) => PromptOutput | Promise<PromptOutput>;

/**
 * Exposes a method of a @Capability() provider as an MCP prompt. The method
 * receives the validated arguments and a PromptContext, and returns the
 * messages (or `{ description?, messages }`).
 */
export function Prompt(options: PromptOptions) {
  return <M extends PromptMethod>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): TypedPropertyDescriptor<M> => {
    SetMetadata(PROMPT_METADATA, options)(target, key, descriptor);
    return descriptor;
  };
}
