/** What a prompt method gets besides its arguments: who asks and how to stop. */
export interface PromptContext {
  readonly clientId: string;
  /** Fires on client cancellation or session end; slow lookups should watch it. */
  readonly signal: AbortSignal;
}
