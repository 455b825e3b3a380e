import { Injectable } from '@nestjs/common';
import { PromptContext } from '../../src/prompts/prompt-context';
import { PromptMessage, userMessage } from '../../src/prompts/prompt-message';
import { Prompt } from '../../src/prompts/prompt.decorator';
import { embeddedText, image, text } from '../../src/tools/content';
import { Capability } from '../../src/tools/handler.decorator';
import { PROMPT_TEXTS, stringFieldSchema, TEST_PNG_BASE64 } from './conformance-fixture.constants';

/** The prompts the conformance suite gets, written with the gateway's @Prompt API. */
@Injectable()
@Capability()
export class ConformancePromptsCapability {
  @Prompt({
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A prompt without arguments.',
  })
  simple(): PromptMessage[] {
    return [userMessage(text(PROMPT_TEXTS.simple))];
  }

  @Prompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with two required arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  })
  withArguments(args: Record<string, string>): PromptMessage[] {
    return [userMessage(text(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`))];
  }

  @Prompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that embeds the resource it is given.',
    arguments: [
      { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
    ],
  })
  withEmbeddedResource(args: Record<string, string>): PromptMessage[] {
    return [
      userMessage(embeddedText(args.resourceUri, PROMPT_TEXTS.embedded, 'text/plain')),
      userMessage(text(PROMPT_TEXTS.embeddedFollowUp)),
    ];
  }

  @Prompt({
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes an image.',
  })
  withImage(): PromptMessage[] {
    return [
      userMessage(image(TEST_PNG_BASE64, 'image/png')),
      userMessage(text(PROMPT_TEXTS.imageFollowUp)),
    ];
  }

  @Prompt({
    name: 'test_input_required_result_prompt',
    title: 'Prompt That Asks For Context',
    description: 'Elicits the context to use (an input-required result on 2026-07-28).',
  })
  async inputRequired(_args: Record<string, string>, ctx: PromptContext): Promise<PromptMessage[]> {
    if (!ctx.elicit) throw new Error('this caller cannot be asked for input');
    const answer = await ctx.elicit(
      {
        message: 'What context should the prompt use?',
        requestedSchema: stringFieldSchema('context'),
      },
      { inputKey: 'user_context' },
    );
    const content = answer.action === 'accept' ? (answer.content as Record<string, unknown>) : {};
    return [
      userMessage(
        text(`Use this context: ${typeof content.context === 'string' ? content.context : 'none'}`),
      ),
    ];
  }
}
