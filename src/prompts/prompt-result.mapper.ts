import { ContentBlock } from '../tools/content';
import { PromptMessage, PromptOutput, PromptResult } from './prompt-message';

const ROLES = new Set(['user', 'assistant']);
const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/**
 * Turns what a @Prompt method returned into the `prompts/get` result. A
 * malformed return is a bug of the prompt, not of the request: it throws a
 * plain Error, which the client sees as an internal error with an incident id.
 */
export function toPromptResult(
  promptName: string,
  output: PromptOutput,
  fallbackDescription: string,
): Required<PromptResult> {
  const { messages, description } = Array.isArray(output)
    ? { messages: output, description: undefined }
    : (output ?? {});
  if (!Array.isArray(messages)) {
    throw new Error(
      `Prompt ${promptName} returned neither an array of messages nor { messages: [...] }`,
    );
  }
  messages.forEach((message, index) => checkMessage(promptName, message, index));
  return {
    description: typeof description === 'string' ? description : fallbackDescription,
    messages,
  };
}

function checkMessage(promptName: string, message: PromptMessage, index: number): void {
  const problem = describeProblem(message);
  if (problem)
    throw new Error(`Prompt ${promptName} returned an invalid message #${index}: ${problem}`);
}

function describeProblem(message: PromptMessage | null | undefined): string | undefined {
  if (typeof message !== 'object' || message === null) return 'not an object';
  if (!ROLES.has(message.role))
    return `role must be user or assistant, got ${String(message.role)}`;
  const content = message.content as ContentBlock | null | undefined;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return 'content must be one content block';
  }
  if (!CONTENT_TYPES.has(content.type)) return `unknown content type ${String(content.type)}`;
  return undefined;
}
