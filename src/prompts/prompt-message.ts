import { ContentBlock } from '../tools/content';

export type PromptRole = 'user' | 'assistant';

/** One message of a prompt: a role and a single content block (text, image, audio, resource, link). */
export interface PromptMessage {
  role: PromptRole;
  content: ContentBlock;
}

/** What `prompts/get` answers. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

/** What a @Prompt method may return: the messages alone, or with a description of this rendering. */
export type PromptOutput = PromptMessage[] | PromptResult;

export const userMessage = (content: ContentBlock): PromptMessage => ({ role: 'user', content });
export const assistantMessage = (content: ContentBlock): PromptMessage => ({
  role: 'assistant',
  content,
});
