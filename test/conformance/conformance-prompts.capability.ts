import { Injectable } from '@nestjs/common';
import { PromptMessage, userMessage } from '../../src/prompts/prompt-message';
import { Prompt } from '../../src/prompts/prompt.decorator';
import { embeddedText, image, text } from '../../src/tools/content';
import { Capability } from '../../src/tools/handler.decorator';
import { PROMPT_TEXTS, TEST_PNG_BASE64 } from './conformance-fixture.constants';

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
}
