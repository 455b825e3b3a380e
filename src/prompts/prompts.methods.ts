import { Injectable } from '@nestjs/common';
import { GatewayError } from '../errors/gateway.error';
import { Governed } from '../governance/governed.decorator';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { RequestTracer } from '../observability/tracing/request-tracer';
import { ATTR_MCP_PROMPT, SPAN_HANDLER } from '../observability/tracing/span-attributes';
import { askClient } from '../tools/client-ask';
import { paginate } from '../tools/list-cursor';
import { PromptResult } from './prompt-message';
import { validatePromptArguments } from './prompt-arguments.validator';
import { toPromptResult } from './prompt-result.mapper';
import { PromptVisibility } from './prompt-visibility';
import { PromptRegistry } from './prompt.registry';
import { PROMPTS_PAGE_SIZE } from './prompts.constants';
import { RegisteredPrompt } from './registered-prompt';
import { unknownPrompt } from './unknown-prompt.error';

/**
 * `prompts/list` and `prompts/get`. A get goes through governance and the
 * ledger like a tool call; a prompt the client may not see answers exactly
 * like one that does not exist.
 */
@Injectable()
export class PromptsMethods {
  constructor(
    private readonly registry: PromptRegistry,
    private readonly visibility: PromptVisibility,
    private readonly tracer: RequestTracer,
  ) {}

  @McpMethod('prompts/list')
  list(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const visible = this.registry
      .list()
      .filter((prompt) => this.visibility.isVisible(prompt, ctx.clientId, ctx.token?.scopes));
    const page = paginate(visible, params.cursor, PROMPTS_PAGE_SIZE);
    const prompts = page.items.map(toListEntry);
    return page.nextCursor === undefined ? { prompts } : { prompts, nextCursor: page.nextCursor };
  }

  @McpMethod('prompts/get', { audited: true, limitedParams: ['arguments'] })
  @Governed({ kind: 'prompt', target: 'name' })
  async get(
    @McpParams() params: JsonRpcParams,
    @McpContext() ctx: McpRequestContext,
  ): Promise<Required<PromptResult>> {
    const prompt = this.find(params.name, ctx);
    const args = validatePromptArguments(prompt.options, params.arguments);
    const output = await this.tracer.inSpan(SPAN_HANDLER, { [ATTR_MCP_PROMPT]: prompt.name }, () =>
      prompt.render(args, {
        clientId: ctx.clientId,
        signal: ctx.signal,
        elicit: (request, options) =>
          askClient(ctx, 'elicitation', 'elicitation/create', request, options),
      }),
    );
    return toPromptResult(prompt.name, output, prompt.options.description);
  }

  private find(name: unknown, ctx: McpRequestContext): RegisteredPrompt {
    if (typeof name !== 'string' || name.length === 0) {
      throw GatewayError.invalidParams('prompts/get needs params.name (a prompt name)', {
        field: 'name',
      });
    }
    const prompt = this.registry.get(name);
    // Governance's visibility guard judged the prompt; one it refused never gets here.
    if (!prompt || !ctx.call.visible) throw unknownPrompt(name);
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
