import { Injectable } from '@nestjs/common';
import { PROMPT_NAME_PATTERN, RegisteredPrompt } from './registered-prompt';

/** Every prompt the gateway serves, in registration order. Filled at boot, fixed afterwards. */
@Injectable()
export class PromptRegistry {
  private readonly prompts = new Map<string, RegisteredPrompt>();

  get size(): number {
    return this.prompts.size;
  }

  /** Throws (stopping the start-up) on a bad name, a duplicate, or a bad argument list. */
  register(prompt: RegisteredPrompt): void {
    if (!PROMPT_NAME_PATTERN.test(prompt.name)) {
      throw new Error(
        `Invalid prompt name "${prompt.name}" (${prompt.origin}): names must match ${PROMPT_NAME_PATTERN.source}`,
      );
    }
    const existing = this.prompts.get(prompt.name);
    if (existing) {
      throw new Error(
        `Duplicate prompt name "${prompt.name}": declared by ${existing.origin} and ${prompt.origin}`,
      );
    }
    checkArguments(prompt);
    checkReads(prompt);
    this.prompts.set(prompt.name, prompt);
  }

  get(name: string): RegisteredPrompt | undefined {
    return this.prompts.get(name);
  }

  list(): RegisteredPrompt[] {
    return [...this.prompts.values()];
  }
}

function checkArguments(prompt: RegisteredPrompt): void {
  const seen = new Set<string>();
  for (const argument of prompt.options.arguments ?? []) {
    if (typeof argument.name !== 'string' || argument.name.length === 0) {
      throw new Error(`Prompt "${prompt.name}" (${prompt.origin}) has an argument without a name`);
    }
    if (seen.has(argument.name)) {
      throw new Error(
        `Prompt "${prompt.name}" (${prompt.origin}) declares the argument "${argument.name}" twice`,
      );
    }
    seen.add(argument.name);
  }
}

function checkReads(prompt: RegisteredPrompt): void {
  const { reads } = prompt.options;
  if (reads === undefined) return;
  if (!Array.isArray(reads) || !reads.every((r) => typeof r === 'string' && r.length > 0)) {
    throw new Error(
      `Prompt "${prompt.name}" (${prompt.origin}): reads must be a list of tool names and resource URIs`,
    );
  }
}
