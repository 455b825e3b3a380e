import { Injectable } from '@nestjs/common';
import { PROMPT_NAME_PATTERN, RegisteredPrompt } from './registered-prompt';

/**
 * Every prompt the gateway serves, in registration order. Local prompts are
 * registered at boot; relayed upstream prompts come and go through replace(),
 * and listeners hear of each change once.
 */
@Injectable()
export class PromptRegistry {
  private readonly prompts = new Map<string, RegisteredPrompt>();
  private readonly listeners = new Set<() => void>();

  get size(): number {
    return this.prompts.size;
  }

  /** Throws (stopping the start-up) on a bad name, a duplicate, or a bad argument list. */
  register(prompt: RegisteredPrompt): void {
    checkName(prompt);
    const existing = this.prompts.get(prompt.name);
    if (existing) throw duplicateName(existing, prompt);
    checkPrompt(prompt);
    this.prompts.set(prompt.name, prompt);
  }

  /** Removes `names` and adds `prompts` as one change; throws, changing nothing, when an added prompt is refused. */
  replace(names: Iterable<string>, prompts: readonly RegisteredPrompt[]): void {
    const leaving = new Set([...names].filter((name) => this.prompts.has(name)));
    const arriving = new Map<string, RegisteredPrompt>();
    for (const prompt of prompts) {
      checkName(prompt);
      const existing =
        arriving.get(prompt.name) ??
        (leaving.has(prompt.name) ? undefined : this.prompts.get(prompt.name));
      if (existing) throw duplicateName(existing, prompt);
      checkPrompt(prompt);
      arriving.set(prompt.name, prompt);
    }
    if (leaving.size === 0 && arriving.size === 0) return;
    for (const name of leaving) this.prompts.delete(name);
    for (const prompt of arriving.values()) this.prompts.set(prompt.name, prompt);
    for (const listener of this.listeners) listener();
  }

  /** Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(name: string): RegisteredPrompt | undefined {
    return this.prompts.get(name);
  }

  list(): RegisteredPrompt[] {
    return [...this.prompts.values()];
  }
}

function checkName(prompt: RegisteredPrompt): void {
  if (!PROMPT_NAME_PATTERN.test(prompt.name)) {
    throw new Error(
      `Invalid prompt name "${prompt.name}" (${prompt.origin}): names must match ${PROMPT_NAME_PATTERN.source}`,
    );
  }
}

function duplicateName(existing: RegisteredPrompt, prompt: RegisteredPrompt): Error {
  return new Error(
    `Duplicate prompt name "${prompt.name}": declared by ${existing.origin} and ${prompt.origin}`,
  );
}

function checkPrompt(prompt: RegisteredPrompt): void {
  checkArguments(prompt);
  checkReads(prompt);
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
