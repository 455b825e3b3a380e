import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { PromptOutput } from '../prompts/prompt-message';
import type { RegisteredPrompt } from '../prompts/registered-prompt';
import { upstreamOutputTooLarge, upstreamUnavailable } from './upstream-call.errors';
import { UPSTREAM_ORIGIN_PREFIX } from './upstream-registered-tool';
import type { UpstreamRecord } from './upstream-record';
import { UPSTREAM_LIST_RELAY_LIMITS } from './upstream-list-relay.limits';
import type { UpstreamPool } from './upstream.pool';

const L = UPSTREAM_LIST_RELAY_LIMITS;

/**
 * An upstream prompt as the PromptRegistry holds it: prompts/list, visibility
 * and governance treat it as a local prompt, and prompts/get forwards the
 * validated arguments through the pool. Returns the reason instead when the
 * prompt's declaration is out of bounds.
 */
export function upstreamRegisteredPrompt(
  record: UpstreamRecord,
  prompt: Prompt,
  exposedName: string,
  pool: UpstreamPool,
): RegisteredPrompt | string {
  const args = prompt.arguments ?? [];
  if (args.length > L.maxPromptArguments) {
    return `declares ${args.length} arguments, more than the limit of ${L.maxPromptArguments}`;
  }
  const tooLong = [prompt.title, ...args.map((arg) => arg.name)].find(
    (text) => typeof text === 'string' && text.length > L.maxNameChars,
  );
  if (tooLong !== undefined) return `a name or title is longer than ${L.maxNameChars} characters`;
  const serverId = record.server_id;
  return {
    name: exposedName,
    origin: `${UPSTREAM_ORIGIN_PREFIX}${serverId}/${prompt.name}`,
    options: {
      name: exposedName,
      ...(prompt.title === undefined ? {} : { title: prompt.title }),
      description: boundedDescription(prompt.description ?? ''),
      arguments: args.map((arg) => ({
        name: arg.name,
        ...(arg.description === undefined
          ? {}
          : { description: boundedDescription(arg.description) }),
        ...(arg.required === undefined ? {} : { required: arg.required }),
      })),
    },
    render: async (values, context) => {
      const connection = pool.connection(serverId);
      if (!connection) throw upstreamUnavailable(serverId, new Error('not in the registry'));
      const result = await connection.request(
        'prompts/get',
        (client, options) => client.getPrompt({ name: prompt.name, arguments: values }, options),
        context.signal,
      );
      const bytes = Buffer.byteLength(JSON.stringify(result));
      const limit = record.budgets.max_tool_output_bytes;
      if (bytes > limit) throw upstreamOutputTooLarge(serverId, 'prompts/get', bytes, limit);
      // The SDK validated the messages against the MCP schema; the mapper checks roles and block types again.
      const output: PromptOutput = { description: result.description, messages: result.messages };
      return output;
    },
  };
}

export function boundedDescription(description: string): string {
  const max = L.maxDescriptionChars;
  return description.length <= max ? description : `${description.slice(0, max - 1)}…`;
}
