import { ClientRequestOptions } from '../tools/handler-context';

/** What a prompt method gets besides its arguments: who asks, how to stop, how to ask back. */
export interface PromptContext {
  readonly clientId: string;
  /** Fires on client cancellation or session end; slow lookups should watch it. */
  readonly signal: AbortSignal;
  /** elicitation/create on the client (an input-required round on 2026-07-28), as for tools. */
  elicit?(
    params: Record<string, unknown>,
    options?: ClientRequestOptions,
  ): Promise<Record<string, unknown>>;
}
