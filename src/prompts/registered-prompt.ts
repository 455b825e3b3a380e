import { PromptContext } from './prompt-context';
import { PromptOutput } from './prompt-message';
import { PromptOptions } from './prompt-options';

/** One prompt as the registry holds it. */
export interface RegisteredPrompt {
  readonly name: string;
  readonly options: PromptOptions;
  /** Where it was declared, for duplicate reports and logs (e.g. `DemoPrompts.planRestock`). */
  readonly origin: string;
  /** Produces the messages from validated arguments. */
  render(args: Record<string, string>, context: PromptContext): Promise<PromptOutput>;
}

/** The same client-safe rule as tool names. */
export const PROMPT_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
