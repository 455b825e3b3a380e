import { Module } from '@nestjs/common';
import { PromptRegistry } from './prompt.registry';

/** The prompt registry alone, so that governance reads prompts without depending on PromptsModule (which depends on governance's visibility policy). */
@Module({ providers: [PromptRegistry], exports: [PromptRegistry] })
export class PromptRegistryModule {}
