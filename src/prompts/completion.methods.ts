import { Injectable } from '@nestjs/common';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { parseCompletionParams } from './completion-params';
import { completionValues, CompletionValues } from './completion-values';
import { PromptArgumentCompleter } from './prompt-argument.completer';
import { SkillTemplateCompleter } from './skill-template.completer';

/** `completion/complete` for prompt arguments and for the variables of the skill templates. */
@Injectable()
export class CompletionMethods {
  constructor(
    private readonly promptArguments: PromptArgumentCompleter,
    private readonly skillTemplates: SkillTemplateCompleter,
  ) {}

  @McpMethod('completion/complete', {
    limitedParams: ['argument', 'context'],
    resourceUris: { paths: ['ref.uri'] },
  })
  async complete(
    @McpParams() params: JsonRpcParams,
    @McpContext() ctx: McpRequestContext,
  ): Promise<{ completion: CompletionValues }> {
    const { ref, argument, context } = parseCompletionParams(params);
    ctx.call.target = ref.type === 'ref/prompt' ? ref.name : ref.uri;
    const candidates =
      ref.type === 'ref/prompt'
        ? await this.promptArguments.candidates(
            ref.name,
            argument.name,
            argument.value,
            context,
            ctx.clientId,
          )
        : this.skillTemplates.candidates(ref.uri, argument.name, context, ctx.clientId);
    return { completion: completionValues(candidates, argument.value) };
  }
}
