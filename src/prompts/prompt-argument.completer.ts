import { Injectable } from '@nestjs/common';
import { GatewayError } from '../errors/gateway.error';
import { PromptVisibility } from './prompt-visibility';
import { PromptRegistry } from './prompt.registry';
import { unknownPrompt } from './unknown-prompt.error';

/** Candidate values of one prompt argument, from its declared `completions`. */
@Injectable()
export class PromptArgumentCompleter {
  constructor(
    private readonly registry: PromptRegistry,
    private readonly visibility: PromptVisibility,
  ) {}

  /**
   * -32602 for an unknown prompt or argument, and for a prompt the client may
   * not see (its completions could reveal the data it reads); [] for an
   * argument declared without completions.
   */
  async candidates(
    promptName: string,
    argumentName: string,
    value: string,
    context: Record<string, string>,
    clientId: string,
  ): Promise<string[]> {
    const prompt = this.registry.get(promptName);
    if (!prompt || !this.visibility.isVisible(prompt, clientId)) throw unknownPrompt(promptName);
    const declared = prompt.options.arguments ?? [];
    const argument = declared.find((arg) => arg.name === argumentName);
    if (!argument) {
      throw GatewayError.invalidParams(
        `Unknown argument "${argumentName}" of prompt ${promptName}`,
        {
          prompt: promptName,
          argument: argumentName,
          arguments: declared.map((arg) => arg.name),
        },
      );
    }
    const { completions } = argument;
    if (completions === undefined) return [];
    if (Array.isArray(completions)) return completions;
    const computed: unknown = await completions(value, context);
    if (!Array.isArray(computed) || !computed.every((item) => typeof item === 'string')) {
      // A bug of the prompt: answered as an internal error with an incident id.
      throw new Error(
        `Completions of ${promptName}.${argumentName} (${prompt.origin}) did not return an array of strings`,
      );
    }
    return computed;
  }
}
