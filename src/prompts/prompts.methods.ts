import { Injectable } from '@nestjs/common';
import { GatewayError } from '../errors/gateway.error';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { paginate } from '../tools/list-cursor';
import { PromptResult } from './prompt-message';
import { validatePromptArguments } from './prompt-arguments.validator';
import { toPromptResult } from './prompt-result.mapper';
import { PromptRegistry } from './prompt.registry';
import { PROMPTS_PAGE_SIZE } from './prompts.constants';
import { RegisteredPrompt } from './registered-prompt';

/** `prompts/list` and `prompts/get`. */
@Injectable()
export class PromptsMethods {
  constructor(private readonly registry: PromptRegistry) {}

  @McpMethod('prompts/list')
  list(@McpParams() params: JsonRpcParams) {
    const page = paginate(this.registry.list(), params.cursor, PROMPTS_PAGE_SIZE);
    const prompts = page.items.map(toListEntry);
    return page.nextCursor === undefined ? { prompts } : { prompts, nextCursor: page.nextCursor };
  }

  @McpMethod('prompts/get', { limitedParams: ['arguments'] })
  async get(
    @McpParams() params: JsonRpcParams,
    @McpContext() ctx: McpRequestContext,
  ): Promise<Required<PromptResult>> {
    const prompt = this.find(params.name);
    ctx.call.target = prompt.name;
    const args = validatePromptArguments(prompt.options, params.arguments);
    const output = await prompt.render(args, { clientId: ctx.clientId, signal: ctx.signal });
    return toPromptResult(prompt.name, output, prompt.options.description);
  }

  private find(name: unknown): RegisteredPrompt {
    if (typeof name !== 'string' || name.length === 0) {
      throw GatewayError.invalidParams('prompts/get needs params.name (a prompt name)', {
        field: 'name',
      });
    }
    const prompt = this.registry.get(name);
    if (!prompt) throw GatewayError.invalidParams(`Unknown prompt: ${name}`, { prompt: name });
    return prompt;
  }
}

/** A Prompt as MCP lists it: declared fields only, completers left out. */
function toListEntry(prompt: RegisteredPrompt) {
  const { title, description, arguments: args } = prompt.options;
  return {
    name: prompt.name,
    ...(title === undefined ? {} : { title }),
    description,
    ...(args === undefined
      ? {}
      : {
          arguments: args.map((arg) => ({
            name: arg.name,
            ...(arg.title === undefined ? {} : { title: arg.title }),
            ...(arg.description === undefined ? {} : { description: arg.description }),
            ...(arg.required === undefined ? {} : { required: arg.required }),
          })),
        }),
  };
}
