/**
 * The public API for capability modules: what a module listed in `capabilities.modules` imports
 * (`from 'owlclaw-mcp-gateway'`, the package's only entry point) to declare tools and prompts.
 */
export { Capability, Handler } from './tools/handler.decorator';
export type {
  HandlerOptions,
  HandlerRateLimits,
  ToolAnnotations,
  JsonSchemaObject,
} from './tools/handler-options';
export type { HandlerContext } from './tools/handler-context';
export type { LoggingLevel } from './session/logging-level';
export type { JsonRpcId } from './json-rpc/json-rpc.types';
export { ToolError } from './tools/tool.error';
export { GatewayError } from './errors/gateway.error';
export type { GatewayErrorOptions } from './errors/gateway.error';
export { ErrorCode } from './errors/error-code';
export {
  text,
  image,
  audio,
  embeddedText,
  embeddedBlob,
  resourceLink,
  toolResult,
} from './tools/content';
export type {
  TextContent,
  ImageContent,
  AudioContent,
  EmbeddedResource,
  ResourceLink,
  ContentBlock,
  ToolResult,
} from './tools/content';
export { Description, Nullable, OneOf, generateDtoSchema } from './tools/schema';
export type { ClassOrPropertyDecorator, DtoAlternative, OneOfAlternative } from './tools/schema';
export { Prompt } from './prompts/prompt.decorator';
export type {
  PromptOptions,
  PromptArgumentOptions,
  ArgumentCompleter,
} from './prompts/prompt-options';
export type { PromptContext } from './prompts/prompt-context';
export { userMessage, assistantMessage } from './prompts/prompt-message';
export type {
  PromptRole,
  PromptMessage,
  PromptResult,
  PromptOutput,
} from './prompts/prompt-message';
