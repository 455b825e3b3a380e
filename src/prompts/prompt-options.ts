/**
 * Suggests values for one prompt argument: receives what the user typed so far
 * and the arguments already filled in. The gateway filters the answer by the
 * typed prefix (case-insensitive) and caps it at 100 values, so a completer
 * may return every candidate.
 */
export type ArgumentCompleter = (
  prefix: string,
  context: Record<string, string>,
) => string[] | Promise<string[]>;

export interface PromptArgumentOptions {
  /** Unique within the prompt; the key of the value in `prompts/get` arguments. */
  name: string;
  title?: string;
  description?: string;
  /** A missing required argument makes `prompts/get` fail with -32602. */
  required?: boolean;
  /** Values offered by `completion/complete`: a fixed list, or a function computing them. */
  completions?: string[] | ArgumentCompleter;
}

export interface PromptOptions {
  /** The prompt name; must match ^[a-zA-Z0-9_-]{1,64}$ and be unique in the gateway. */
  name: string;
  /** Human-readable name for UIs (e.g. a slash-command menu). */
  title?: string;
  description: string;
  /** Every argument is a string; nothing else is accepted by `prompts/get`. */
  arguments?: PromptArgumentOptions[];
  /**
   * Tool names and resource URIs whose data the prompt puts in its messages
   * (e.g. `['orders_get']`): a client sees the prompt only if it may see every
   * one of them, so a prompt is never a way round a deny rule.
   */
  reads?: string[];
}
